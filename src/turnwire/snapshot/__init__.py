"""The at-rest turn snapshot (`AgentTurnSnapshot`), the shapes it retired, and the rows it is built from.

One concept per module:

* `envelope`: the snapshot models (snake_case envelope with `null` for absent values, the profile's
  parts inside) and the status values;
* `check`: judging a served snapshot (`check_snapshot`) and reading one (`read_snapshot`);
* `payloads`: the serving backend's typed data payloads, for checks that opt into them;
* `legacy`: the retired snapshot body and the stored rows (turn, artifacts, runtime state);
* `projection`: rows to parts and to a whole snapshot, and the check of a served snapshot against
  its rows;
* `legacy_keys`: the legacy-key registry (`conformance/legacy-keys.yaml`), the deny-scan, and how
  readers accept retired keys;
* `cases`: the scripted turns (rows) behind `golden/snapshot/`.

The contract in prose is `docs/snapshot.md`.
"""

from turnwire.snapshot.check import ARTEFACT, SnapshotReading, check_snapshot, read_snapshot
from turnwire.snapshot.envelope import (
    SCHEMA_VERSION,
    AgentTurnSnapshot,
    AgentTurnSnapshotV5,
    AgentTurnSnapshotV6,
    AgentTurnSnapshotV7,
    SnapshotEnvelope,
    TurnStatus,
    snapshot_model,
)
from turnwire.snapshot.legacy import LegacyTurnSnapshot, SnapshotSources
from turnwire.snapshot.legacy_keys import LegacyKey, accept_legacy, deny_scan, legacy_keys
from turnwire.snapshot.payloads import check_payloads
from turnwire.snapshot.projection import assemble_snapshot, check_assembly, extract_error_text, project_parts

__all__ = [
    "ARTEFACT",
    "SCHEMA_VERSION",
    "AgentTurnSnapshot",
    "AgentTurnSnapshotV5",
    "AgentTurnSnapshotV6",
    "AgentTurnSnapshotV7",
    "LegacyKey",
    "LegacyTurnSnapshot",
    "SnapshotEnvelope",
    "SnapshotReading",
    "SnapshotSources",
    "TurnStatus",
    "accept_legacy",
    "assemble_snapshot",
    "check_assembly",
    "check_payloads",
    "check_snapshot",
    "deny_scan",
    "extract_error_text",
    "legacy_keys",
    "project_parts",
    "read_snapshot",
    "snapshot_model",
]
