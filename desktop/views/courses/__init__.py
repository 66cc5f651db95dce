"""Cursos (issue 16; Art. 12, §2): sessions, the convocation of drivers chosen by a filter (within the capacity),
the convocation notice printed or the list exported, attendance recorded from the signed list, excused absences
with their document — and, for the fiscal, the unjustified absences as Art. 26, III candidates (Art. 13, XVI),
drawn up in the Fiscalização form (`AutoFormDialog.prefill_course_absence`).

The screen is `page.CoursesPage` (issue 22: a whole screen lives in a module of its own, not in the package's face).
"""
from desktop.views.courses.page import CoursesPage

__all__ = ["CoursesPage"]
