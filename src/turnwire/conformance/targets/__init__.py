"""Targets: where the artefacts a check judges come from (a recording, a live URL, the embedded runtime)."""
