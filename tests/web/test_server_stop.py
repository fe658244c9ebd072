"""Stopping waitress (web_ui.server.stop_server, as `rubicon run` does): every socket and the wake-up
pipe closed, no thread left running its loop, and no descriptor closed while a thread may still use
it, also when a worker outlives the stop's wait."""
import http.client
import logging
import socket
import threading

import pytest
from flask import Flask

from web_ui.server import make_server, stop_server


@pytest.fixture
def blocking():
    """An app whose /slow request holds its worker until `release` is set."""
    app = Flask(__name__)
    entered, release = threading.Event(), threading.Event()

    @app.get("/slow")
    def slow():
        entered.set()
        assert release.wait(60)
        return "done"

    @app.get("/quick")
    def quick():
        return "ok"
    return app, entered, release


def serve(app):
    server = make_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread


def get(server, path):
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    conn.request("GET", path)
    return conn, conn.getresponse()


def refused(port) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=30).close()
    except ConnectionRefusedError:
        return True
    return False


def test_a_stop_closes_the_connections_the_socket_and_the_pipe(blocking):
    app, _, _ = blocking
    server, thread = serve(app)
    conn, resp = get(server, "/quick")           # a kept-alive connection, open at the stop
    assert resp.read() == b"ok"
    assert stop_server(server, thread)
    assert not thread.is_alive() and server._map == {}
    assert server.trigger._closed and refused(server.effective_port)
    assert conn.sock.recv(1) == b""              # the open connection was closed by the server
    conn.close()


def test_a_stop_waits_for_the_request_in_progress(blocking):
    app, entered, release = blocking
    server, thread = serve(app)
    answer = {}
    client = threading.Thread(target=lambda: answer.update(body=get(server, "/slow")[1].read()))
    client.start()
    assert entered.wait(30)
    stopping = threading.Thread(target=lambda: answer.update(stopped=stop_server(server, thread)))
    stopping.start()
    release.set()
    stopping.join(60)
    client.join(60)
    assert answer == {"body": b"done", "stopped": True}
    assert not thread.is_alive() and server.trigger._closed


def test_a_worker_outliving_the_stop_never_writes_to_a_closed_pipe(blocking, caplog):
    app, entered, release = blocking
    server, thread = serve(app)
    answer = []

    def ask() -> None:
        try:
            get(server, "/slow")
        except http.client.RemoteDisconnected as exc:
            answer.append(exc)
    client = threading.Thread(target=ask)
    client.start()
    assert entered.wait(30)
    with caplog.at_level(logging.WARNING):
        assert stop_server(server, thread, timeout=0.2) is False   # the worker waits for `release`
    assert not thread.is_alive() and refused(server.effective_port)
    client.join(60)
    assert len(answer) == 1                      # its connection was closed by the stop
    assert not server.trigger._closed            # left open: the worker may still write to it
    caplog.clear()
    release.set()
    server.task_dispatcher.shutdown(timeout=30)  # the worker finishes: with nothing to answer
    assert server.task_dispatcher.threads == set()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    server.trigger.close()
