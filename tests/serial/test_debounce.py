"""The presence debouncer: no committed change unless the raw state held for the whole window."""
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared.debounce import DEFAULT_WINDOW_MS, Debouncer

KEY = (3, "04A1B2C3")

# A raw timeline: (milliseconds since the previous poll, is the tag read at this poll)
timelines = st.lists(st.tuples(st.integers(1, 400), st.booleans()), max_size=200)


@given(timelines, st.sampled_from([0, 50, 300]))
def test_every_committed_change_held_raw_for_the_window(timeline, window):
    deb = Debouncer(window)
    now, samples, changes = 0, [], []
    for step, raw in timeline:
        now += step
        samples.append((now, raw))
        for _key, present in deb.update(now, {KEY} if raw else set()):
            changes.append((now, present))
    state = False
    for when, present in changes:
        assert present != state, "changes alternate: never two seens or two gones in a row"
        state = present
        # The samples up to this commit end with an unbroken run showing the new state that
        # spans at least the window.
        start = when
        for t, raw in reversed([(t, raw) for t, raw in samples if t <= when]):
            if raw != present:
                break
            start = t
        assert when - start >= window
    # And nothing real is missed: a raw state read unchanged across a full window ends up stable.
    if samples:
        last = samples[-1][1]
        run = [t for t, raw in samples if t > max([t for t, raw in samples if raw != last], default=-1)]
        if samples[-1][0] - run[0] >= window:
            assert (KEY in deb.stable) == last


def test_flicker_shorter_than_the_window_never_commits():
    deb = Debouncer()
    out = []
    for now in range(0, 2000, 50):      # present from t=0 ...
        out += deb.update(now, {KEY})
    for now in range(2000, 10000, 50):  # ... then missed one poll in three, runs of up to 100 ms
        out += deb.update(now, set() if now % 150 else {KEY})
    assert out == [(KEY, True)]


def test_real_removal_and_placement_commit_after_the_window():
    deb = Debouncer()
    assert deb.update(0, {KEY}) == []
    assert deb.update(DEFAULT_WINDOW_MS - 1, {KEY}) == []
    assert deb.update(DEFAULT_WINDOW_MS, {KEY}) == [(KEY, True)]
    assert deb.update(1000, set()) == []
    assert deb.update(1000 + DEFAULT_WINDOW_MS, set()) == [(KEY, False)]
    assert deb.stable == set()


def test_a_return_within_the_window_cancels_the_pending_change():
    deb = Debouncer(300)
    deb.update(0, {KEY})
    deb.update(300, {KEY})
    assert deb.update(400, set()) == []
    assert deb.update(500, {KEY}) == []
    assert deb.update(650, set()) == []       # the absence restarts at 650, not 400
    assert deb.update(900, set()) == []
    assert deb.update(950, set()) == [(KEY, False)]
