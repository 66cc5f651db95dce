"""Reads are checked by role in the services (issue 25 item 7): every public service entry point — a top-level
function of desktop/services whose first parameter is the database (`db`), the form views and the CLI call —
takes the `actor`, and checks it against the role table of desktop/domain/roles.py. The only exceptions are listed
here, each with why it reads nothing personal (or runs before anyone logs in, or is the system's own job)."""
from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "desktop" / "services"

NOTHING_PERSONAL = {
    # the law's and the office's reference tables: the same for every desk, nobody's data
    "catalog.ensure_catalog": "writes the law's infraction codes (Art. 26-27) when the catalogue is empty",
    "catalog.list_codes": "the catalogue of infraction codes (law and decree), no person in it",
    "catalog.codes_in_force": "the catalogue of infraction codes in force on a day",
    "parameters.list_parameters": "the dated parameters (UPFM, fees, ISS rate): the decree's numbers",
    "parameters.current_parameters": "the dated parameters in force on a day",
    "parameters.parameter_value": "one dated parameter in force on a day",
    "parameters.upfm_value": "the UPFM value of a year (Art. 25)",
    "holidays.list_holidays": "the office's table of municipal holidays",
    "holidays.calendar": "the business-day calendar (national, MT and municipal holidays)",
    "guides.late_charges_configured": "whether the tax code's late charges were configured (parameters)",
    "setup.get_municipality": "the municipality's name, brasão and secretariat, printed on every document",
    "documents.archive.municipality_header": "the header printed on every document",
    "demo.is_demo_db": "whether the database is a demonstration (the window title and the PDF mark)",
    # before anyone logs in: the login itself and the first-run wizard
    "auth.login": "the login: it is what makes the actor",
    "setup.needs_setup": "whether the first-run wizard must run (no user exists yet)",
    "setup.initialize": "the first-run wizard: creates the municipality and the first user",
    "users.count_users": "how many users exist (the first-run and demo checks), no data of any",
    "users.find_user": "the lookup by user name that MAKES the actor: the login screen and the CLI's --user, before "
                       "anyone is logged in (the password is asked next)",
    "users.find_user_or_none": "the same lookup, None when the name is unknown (the login's message)",
    # a platform's guide numbers: a company's tax guide, no person's data (Art. 11)
    "issqn.collection.guide_for": "an ISSQN guide's database id by its printed number (a platform's tax guide)",
    "issqn.collection.open_guide_number": "the number of a platform's open ISSQN guide of a month (the CLI prints "
                                          "it instead of issuing a second one)",
    # the signing keys: public keys are public; the private one comes from this desk's key store, not a person
    "setup.signing_private_key": "the desk's key to sign stickers and checkpoints (keystore; issue 11)",
    "setup.signing_keys": "the municipality's public keys with their validity",
    "documents.sticker_check.sticker_public_key": "the municipality's public key",
    # the sticker check is public by design (Art. 13: a passenger or an agent checks the QR in the street)
    "documents.sticker_check.check_sticker": "the public check of a sticker's QR: authentic or not, valid or not",
    "documents.sticker_check.check_sticker_keeping_key": "the same check with keys kept by the desk",
    # the audit chain's integrity, checked by the CLI (`audit verify`) and the daily job
    "audit.latest_checkpoint": "the published head of the audit chain (a hash)",
    "audit.verify": "`audit verify`: whether the chain is intact, no entry's content is returned",
    # the system's own jobs, run at start-up and daily as SYSTEM_ACTOR inside
    "daily.run_daily_jobs": "the daily routine (runs as the system)",
    "enforcement_jobs.run_enforcement_jobs": "the daily enforcement routine (terms ending; runs as the system)",
    "jobs.run_due_transitions": "suspensions ending on their date (runs as the system)",
    "checkpoints.daily_checkpoint": "signs the audit chain's head once a day (runs as the system)",
    "trips.retention.remove_expired_trips": "the retention rule's deletion of expired trips (runs as the system)",
    "auto_backup.backup_state": "whether today's backup file exists (file system; no record read)",
    "trips.imports.start_reader": "starts the reading process of a trip file; the import that uses it checks "
                                  "the actor (TRIP_DATA_ROLES)",
    # the demonstration loader (a client of the services, run by the CLI and the wizard on a demo database)
    "demo.own_records": "counts of rows per table, to refuse loading the demo over the office's own work",
    "demo.mark_demo": "marks the database as a demonstration before desktop.demo.entry loads it (no person's data)",
    "demo.unmark_demo": "takes the demo mark back when a demo load failed on a database with no records",
}

STILL_WITHOUT_ACTOR: dict[str, str] = {
    # reads of personal data still to take the actor, each with the issue that will give it (none left: the
    # documents' archive, the document in force and the pending stickers take it since issue 25 item 7)
}


def _entry_points_without_actor() -> set[str]:
    found = set()
    for path in sorted(SERVICES.rglob("*.py")):
        module = ".".join(path.relative_to(SERVICES).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith("_"):
                continue
            params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
            if params and params[0] == "db" and "actor" not in params:
                found.add(f"{module}.{node.name}")
    return found


def test_issue25_7_every_service_entry_point_takes_the_actor():
    missing = _entry_points_without_actor() - set(NOTHING_PERSONAL) - set(STILL_WITHOUT_ACTOR)
    assert missing == set(), ("a public service function reads without the actor (add `actor` and check the role "
                              f"table of desktop/domain/roles.py): {sorted(missing)}")


def test_the_exceptions_are_real_and_explained():
    found = _entry_points_without_actor()
    stale = (set(NOTHING_PERSONAL) | set(STILL_WITHOUT_ACTOR)) - found
    assert stale == set(), f"listed as taking no actor, but it takes one now (or is gone): {sorted(stale)}"
    assert all(len(reason) > 20 for reason in {**NOTHING_PERSONAL, **STILL_WITHOUT_ACTOR}.values())
    assert not set(NOTHING_PERSONAL) & set(STILL_WITHOUT_ACTOR)


def test_the_autos_reads_take_the_actor_second():
    """House form `x(db, actor, ...)` (STYLE); issue 25 item 7 names these."""
    tree = ast.parse((SERVICES / "autos" / "queries.py").read_text(encoding="utf-8"))
    names = {"get_auto", "get_auto_in", "get_auto_info", "allowed_actions", "list_autos", "list_autos_in",
             "count_autos", "count_autos_in", "infractor_page", "infractor_page_in"}
    seen = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            params = [a.arg for a in node.args.args]
            assert params[1] == "actor", node.name
            assert len(node.args.defaults) <= len(params) - 2, f"{node.name}: actor must not default"
            seen.add(node.name)
    assert seen == names
