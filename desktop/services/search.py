"""The face kept for the office's scripts (docs/contracts.md lists `services.search`): what the register's lists
and detail pages share, each in the module named for it since issue 22 —

- `services.paging`: `Page`, `MAX_PAGE`, `search_terms`, `check_search`, `prefix_range`, `contains`,
  `digits_query`, `check_page`, `order_by`, `count`, `capped_count`;
- `services.lookups`: `get_or_404`, `user_names`;
- `services.timeline`: `TimelineEntry`, `ACTION_LABELS`, `audit_timeline`, `merge_timelines`, `date_text`;
- `services.permissions`: `require_reader`, `FRONT_DESK`.

Code of the program imports from the named modules; this face only re-exports them."""
from __future__ import annotations

from desktop.services.lookups import get_or_404, user_names
from desktop.services.paging import (MAX_PAGE, Page, capped_count, check_page, check_search, contains, count,
                                     digits_query, order_by, prefix_range, search_terms)
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.timeline import ACTION_LABELS, TimelineEntry, audit_timeline, date_text, merge_timelines

__all__ = [
    "Page", "TimelineEntry", "search_terms", "check_search", "prefix_range", "contains", "digits_query",
    "require_reader", "check_page", "order_by", "count", "capped_count", "user_names", "audit_timeline",
    "merge_timelines", "ACTION_LABELS", "date_text", "get_or_404", "FRONT_DESK", "MAX_PAGE",
]
