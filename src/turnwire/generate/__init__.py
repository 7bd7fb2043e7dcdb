"""Generation: everything turnwire derives from its scenario data.

The scripted turns live once, as data, in `conformance/scenarios/` (loaded by
`turnwire.generate.scenarios`). From them this package writes the checked-in JSON Schemas and golden
fixtures, and checks that what is checked in still matches what would be generated.
"""
