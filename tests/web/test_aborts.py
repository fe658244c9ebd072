"""An error page's refusal code is given by the code that refuses (web_ui/aborts.py), never found
by reading its English: the same words without a code are a plain HTTP error."""
import pytest
from werkzeug.exceptions import HTTPException, NotFound

from web_ui.aborts import code_of, refuse


def test_the_code_is_the_refusers_not_read_from_the_words():
    with pytest.raises(HTTPException) as refused:
        refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
    assert refused.value.code == 404 and code_of(refused.value) == "web.record-too-early"
    assert code_of(NotFound("the record can be downloaded once the game is over")) == "http.404"


def test_an_error_page_says_its_code_in_the_readers_language(app):
    resp = app.test_client().get("/record.txt", headers={"Accept-Language": "es"})
    assert resp.status_code == 404
    page = resp.get_data(as_text=True)
    assert "el registro puede descargarse cuando termine la partida" in page
    assert "the record can be downloaded" not in page
