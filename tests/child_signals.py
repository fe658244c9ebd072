"""For tests that press Ctrl-C in a child process: a child started by a shell without job control
(a CI runner's `cmd &`) inherits SIGINT ignored, and Python then never raises KeyboardInterrupt.
`preexec_fn=ctrl_c_reaches_child` gives the child SIGINT's default, as a terminal would."""
import signal


def ctrl_c_reaches_child() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
