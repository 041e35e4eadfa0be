// The header: round, phase (`phase_title`), what the game waits for (`awaiting.text`), each seat's pass points, CP and VP, and the chess clock
// when the game has one (MSN.CLK.1): used and left per seat, the running side lit, ticking on from `since`.
const el = (id) => document.getElementById(id);
const put = (id, text) => { el(id).textContent = text; };

export function whoseGo(state) {
  if (state.status === "ended") {
    const winner = state.result?.winner;
    return winner ? `${state.players[winner]} wins` : state.result?.draw ? "A draw" : "Game over";
  }
  if (state.undo_request) {  // commands wait for the answer (SVC.UNDO.PENDING)
    const asker = state.undo_request.requested_by;
    return `${state.players[asker === "A" ? "B" : "A"]} to answer the undo`;
  }
  return state.awaiting?.text || "";  // the service's sentence, to this reader: "The game waits for you to …"
}

export function clockText(seconds, roundUp = false) {  // time left rounds up: 29:59.6 left reads 30:00
  const whole = Math.max(0, roundUp ? Math.ceil(seconds) : Math.floor(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

let ticking = null;
function showClock(state) {
  const clock = state.status === "ended" ? null : state.clock;
  for (const seat of ["A", "B"]) {
    const box = el(`clock-${seat}`);
    const mine = state.clock?.[seat];
    box.hidden = !mine;
    if (!mine) continue;
    const running = Boolean(clock && mine.running && mine.since);
    const ran = running ? Math.max(0, (Date.now() - Date.parse(mine.since)) / 1000) : 0;
    const left = Math.max(0, mine.left_s - ran);
    box.classList.toggle("running", running);
    box.classList.toggle("out", mine.out || left <= 0);
    box.querySelector(".used").textContent = `${clockText(mine.used_s + ran)} used`;
    box.querySelector(".left").textContent = mine.out || left <= 0 ? "out of time" : `${clockText(left, true)} left`;
  }
  if (state.clock && !ticking) ticking = setInterval(() => showClock(currentState()), 1000);
}

let currentState = () => ({});

export function showMoment(state, mySeat, latest) {
  currentState = latest;
  put("round", state.status === "setup" ? "Setting up" : `Round ${state.battle_round} of ${state.options?.battle_rounds ?? "?"}`);
  put("phase", state.phase_title || "");  // as the rules name it: "Move Units (Movement phase)"
  put("whose-go", whoseGo(state));
  for (const seat of ["A", "B"]) {
    put(`name-${seat}`, state.players[seat]);
    put(`pp-${seat}`, String(state.pass_points?.[seat] ?? 0));
    put(`cp-${seat}`, String(state.cp?.[seat] ?? 0));
    put(`vp-${seat}`, state.vp ? String(state.vp[seat] ?? 0) : "–");
    put(`done-${seat}`, state.declared_done?.[seat] ? "declared done" : "");
    el(`seat-${seat}`).classList.toggle("to-act", state.status !== "ended" && state.awaiting?.seat === seat);
    el(`seat-${seat}`).classList.toggle("me", mySeat === seat);
  }
  showClock(state);
}
