"""The law as code: pure Python (no Qt, no SQLAlchemy, no ReportLab, no pandas). See issue 3 for the API."""
from desktop.domain.problems import Problem
from desktop.domain.roles import Role

__all__ = ["Problem", "Role"]
