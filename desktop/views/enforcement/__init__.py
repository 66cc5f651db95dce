"""Fiscalização screens (Art. 17–28): the module page is `page.EnforcementPage` (the list of autos and the page of
one auto, the administrative measures and the infraction catalogue); the rest of the package holds its screens,
forms and dialogs."""
