"""warlog's domain: the rules, the Game aggregate, dice and the hash chain (pure: no HTTP, no SQL, no clock).

Installed as `warlog.domain`. Stores written before that name kept the topics `domain.<module>:<class>` in every
event and snapshot row; they resolve here, to the same classes (the eventsourcing library's `register_topic`)."""
import sys

from eventsourcing.utils import register_topic

register_topic("domain", sys.modules[__name__])
