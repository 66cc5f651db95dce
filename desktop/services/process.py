"""The administrative process of an auto moved to `desktop.services.autos.process` (issue 22: a newcomer finds it
with the autos). This name stays for the office's scripts that import `desktop.services.process` (docs/contracts.md
lists its functions): everything public there is public here."""
from desktop.services.autos.process import *  # noqa: F401,F403
from desktop.services.autos.process import __all__  # noqa: F401
