"""The live hub (web_ui/live.py) on its own: every open stream gets each update once, rendered
once per viewer key, players' streams first; a viewer whose rendering fails loses its stream, the
others go on."""
import threading

from web_ui.live import LiveHub, Viewer

GUARD_S = 30
LIMITS = {"guests": 10, "address": 10, "side": 10}


class Writer:
    """Stands for the server's side of a stream: keeps what was sent."""

    def __init__(self, sent_order=None):
        self.sent: list[bytes] = []
        self.closed = False
        self.cond = threading.Condition()
        self.order = sent_order

    def alive(self):
        return not self.closed

    def send(self, data):
        with self.cond:
            self.sent.append(data)
            if self.order is not None and data.startswith(b"id:"):
                self.order.append(self)
            self.cond.notify_all()
        return True

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def wait(self, predicate):
        with self.cond:
            assert self.cond.wait_for(lambda: predicate(self), GUARD_S)


def events(writer, version):
    return [d for d in writer.sent if d.startswith(f"id: {version}\n".encode())]


def test_an_update_reaches_every_stream_rendered_once_per_key_and_a_failing_one_alone_ends(app, table):
    hub = LiveHub(table)
    renders = []
    order = []

    def render(name):
        def build(snap):
            renders.append(name)
            if name == "broken" and snap.version > start:
                raise RuntimeError("a broken view")
            return {"v": snap.version}
        return build

    start = table.snapshot().version
    with app.test_request_context("/stream"):
        streams = {
            "tv1": hub.admit(Viewer(None, "10.0.0.2", ("guest", "en")), render("guest"), start, LIMITS),
            "tv2": hub.admit(Viewer(None, "10.0.0.3", ("guest", "en")), render("guest"), start, LIMITS),
            "broken": hub.admit(Viewer(None, "10.0.0.4", ("guest", "sv")), render("broken"), start, LIMITS),
            "caesar": hub.admit(Viewer("Caesar", "10.0.0.5", ("player", "Caesar")), render("caesar"), start, LIMITS),
        }
    writers = {name: Writer(order) for name in streams}
    for name, stream in streams.items():
        stream.attach(writers[name])
    snap = table.snapshot()
    side = snap.waiting_for[0]
    outcome = table.act(side, next(o["line"] for o in snap.side(side).options() if o["type"] != "take-back"))
    for name in ("tv1", "tv2", "caesar"):
        writers[name].wait(lambda w: events(w, outcome.version))
    writers["broken"].wait(lambda w: w.closed)
    assert all(len(events(writers[n], outcome.version)) == 1 for n in ("tv1", "tv2", "caesar"))
    assert renders.count("guest") == 1          # the two TVs share one rendering
    assert order[0] is writers["caesar"]        # the player first
    assert hub.count() == {"players": 1, "guests": 2}
    table.stop()
    for name in ("tv1", "tv2", "caesar"):
        writers[name].wait(lambda w: w.closed)  # the table stopped: every stream is ended
