"""The conformance runner: a catalogue of checks run against a target, reported as findings.

`model` (capabilities, results, the report), `catalogue` (checks register themselves), `context`
(what a check sees: recordings and a live runtime client), `checks/` (one module per family),
`targets/` (recording files, a live URL, the embedded reference runtime).
"""
