"""The rate every limit uses (GCRA): a burst at once, then one request per interval, and the wait says when."""
from warlog.api.limits import LocalCounters, Rate


def test_a_key_gets_its_burst_at_once_and_then_one_request_per_interval():
    rate = Rate(per_second=2.0, burst=3)
    tat, admitted = None, []
    for _ in range(4):
        pushed, _wait = rate.admit(tat, now=100.0)
        admitted.append(pushed is not None)
        tat = pushed if pushed is not None else tat
    assert admitted == [True, True, True, False]
    assert rate.admit(tat, now=100.0)[1] == 0.5  # one interval until the next one fits
    assert rate.admit(tat, now=100.5)[0] == 102.0
    assert rate.admit(tat, now=100.4)[0] is None


def test_a_key_idle_for_its_burst_is_back_to_a_full_burst_and_keys_do_not_share_a_count():
    counters, rate = LocalCounters(), Rate(per_second=1000.0, burst=2)
    assert [counters.admit_now("a", rate) == 0 for _ in range(3)] == [True, True, False]
    assert counters.admit_now("b", rate) == 0
