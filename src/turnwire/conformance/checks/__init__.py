"""Conformance checks, one module per family; each registers itself with `turnwire.conformance.catalogue.check`."""
