"""Numbers the law itself sets, each beside its article (STYLE: every number the law sets is a constant here).

Numbers the regulating decree or the tax code set (UPFM value, fees, ISS rate, defense/appeal terms) are not here:
they are dated parameters in the database.
"""
from __future__ import annotations

from datetime import date

LAW_NAME = "Lei nº 2.103/2025"
LAW_DATE = date(2025, 6, 4)                  # Art. 30: in force on publication (sanctioned 04/06/2025)
HOME_MUNICIPALITY = "Chapada dos Guimarães"  # Art. 1; Art. 8, §1, I; Art. 15, parágrafo único, VIII
HOME_UF = "MT"

MAX_PERSONS_INCLUDING_DRIVER = 7             # Art. 2, caput
REQUIRED_DOORS = 4                           # Art. 2, §1
VEHICLE_MAX_AGE_YEARS = 10                   # Art. 2, §1 (counted year by year, ending 31 December: §2)

AUTHORIZATION_MAX_MONTHS = 12                # Art. 3, §1 (from the payment of the fees)
RENEWAL_BUSINESS_DAYS = 15                   # Art. 3, §2 (at least 15 business days before expiry)

PLATFORM_DATA_HOURS = 24                     # Art. 4, §2
PLATFORM_LIST_INTERVAL_DAYS = 60             # Art. 5, VIII

VEHICLES_PER_DRIVER = 1                      # Art. 8, caput
MAX_VEHICLES_PER_INDIVIDUAL_LESSOR = 3       # Art. 8, §3, IV

INSPECTION_PRESENTATION_DAYS = 5             # Art. 9 (after the approval of the request)
DATA_CHANGE_NOTICE_DAYS = 7                  # Art. 13, XVIII
REGULARIZATION_DAYS = 5                      # Art. 16, §2 (after a failed inspection)

GRAVISSIMA_LOOKBACK_MONTHS = 12              # Art. 12, VII (before the protocol date)
ACCEPTED_CNH_CATEGORIES = ("B", "C", "D", "E", "AB", "AC", "AD", "AE")  # Art. 12, I: "categoria B ou superior"

SUSPENSION_MONTHS = 12                       # Art. 24, parágrafo único; Art. 26, V and VI
STREET_BOARDING_RECURRENCE_SUSPENSION_DAYS = 30  # Art. 26, §1 (the specific rule beats Art. 24's 12 months)
DEFAULT_RECURRENCE_WINDOW_MONTHS = 12        # SPEC §3 (a parameter; default as in the CTB)

REGULATION_DAYS = 90                         # Art. 29
