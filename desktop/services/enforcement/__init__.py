"""What the enforcement services share (autos, process, penalties, ledger, jobs), so that they import it instead
of each other and the import graph has no cycle:

- `core`: the auto loader, the debtor, the balance, the auto's status moves and steps, stored attachments;
- `postings`: posting and reversing ledger entries, and reading them back as `EntryInfo`;
- `recurrence`: the debtor's final autos (priors) and the law's proposal for a stored auto;
- `records`: the frozen infos the services return about an auto (`AutoInfo`, notices, defenses, judgments).

Each module imports only `desktop.domain`, `desktop.models` and the small shared services (audit, base,
catalog, parameters); nothing here imports `autos`, `process`, `penalties` or `ledger`.
"""
