"""Secrets: masked in repr, str and plain dumps; written only for the wire; redaction helpers."""

from __future__ import annotations

from pydantic import BaseModel, SecretStr

from turnwire.findings import Finding
from turnwire.tools import REDACTED, Redactor, Secret, redact
from turnwire.tools.secrets import REVEAL_SECRETS, reveal


class Holder(BaseModel):
    token: Secret
    maybe: Secret | None = None


def test_secret_fields_are_masked_unless_revealed() -> None:
    holder = Holder(token=SecretStr("tok-abcdef"))
    assert "tok-abcdef" not in repr(holder)
    assert holder.model_dump() == {"token": REDACTED, "maybe": None}
    assert "tok-abcdef" not in holder.model_dump_json()
    assert holder.model_dump(context=REVEAL_SECRETS) == {"token": "tok-abcdef", "maybe": None}
    assert holder.model_dump(context={"turnwire.reveal_secrets": "yes"})["token"] == REDACTED  # only True reveals


def test_reveal_helper() -> None:
    assert reveal(None) is None
    assert reveal(SecretStr("x")) == "x"


def test_redactor_masks_longest_first_in_text_json_and_findings() -> None:
    redactor = Redactor(["abc", "abcdef", SecretStr("zzz"), ""])
    assert redactor.values == ("abcdef", "abc", "zzz")
    assert redactor.text("abcdef abc zzz q") == f"{REDACTED} {REDACTED} {REDACTED} q"
    assert redactor.json({"abc": ["zzz", 1, None], "k": "x"}) == {REDACTED: [REDACTED, 1, None], "k": "x"}
    finding = Finding.of("RUN-SECRET-PLACEMENT", "saw abc", expected="none", received="zzz", json_path="$.abc")
    clean = redactor.finding(finding)
    assert (clean.message, clean.received, clean.json_path, clean.expected) == (
        f"saw {REDACTED}",
        REDACTED,
        f"$.{REDACTED}",
        "none",
    )
    assert redactor.findings([finding]) == [clean]
    assert "abc" not in repr(redactor)
    assert redactor
    assert not Redactor([])
    assert Redactor([]).finding(finding) is finding
    assert set(Redactor(["a1"]).merged(Redactor(["b2"])).values) == {"a1", "b2"}


def test_redact_function() -> None:
    assert redact("key=hunter22 ok", ["hunter22"]) == f"key={REDACTED} ok"
