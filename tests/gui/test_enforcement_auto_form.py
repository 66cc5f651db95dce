"""Issue 6 — "Novo auto de infração": the fiscal's form shows at once what the law proposes as the code and the
infractor change (Art. 24–27, recurrence of SPEC §3), and saving gives the NNNN/AAAA number (Art. 19)."""
from __future__ import annotations

from datetime import date

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups; helpers
from enforcement_fixtures import draw_up, make_final, shoot

from desktop.views.enforcement.auto_form import AutoFormDialog
from tests.files import tiny_png

JUNE = date(2026, 6, 1)


def open_form(qtbot, db, people, lookups, today=JUNE):
    dialog = AutoFormDialog(db, people.fiscal, lookups=lookups, today=today)
    qtbot.addWidget(dialog)
    dialog.resize(1150, 760)
    return dialog


def pick(picker, text):
    picker.edit.setText(text)
    picker.search_now()
    return picker.value()


def test_art26_par1_form_shows_30_day_suspension_for_a_second_street_boarding(qtbot, db, people, register,
                                                                             lookups):
    """Art. 26 §1: a second ART26-IV of the same driver within 12 months of a final one → suspension of
    30 days; the panel names the prior auto. Another driver, the same code: no recurrence."""
    first = make_final(db, people, draw_up(db, people.fiscal, "ART26-IV", date(2026, 3, 2),
                                           driver_id=register.joao))
    assert str(first.status) == "final"
    form = open_form(qtbot, db, people, lookups)
    form.select_code("ART26-IV")
    assert pick(form.driver_picker, "maria") == register.maria
    form.refresh_preview()
    text = form.panel.plain_text()
    assert "Sem reincidência" in text
    assert "30 UPFM = R$ 3.373,50" in text            # Art. 25 III: grave, 30 × R$ 112,45 (UPFM of 2026)
    assert "suspensão" not in text.lower().replace("sem reincidência", "")

    assert pick(form.driver_picker, "joao") == register.joao   # "joao" finds "João"
    form.refresh_preview()
    text = form.panel.plain_text()
    assert "Reincidência encontrada" in text and first.number in text
    assert "suspensão de 30 dias" in text
    assert "Art. 26, §1" in text
    assert form.preview.recurrence and form.preview.suspension_days == 30
    shoot(form, "auto_form_recurrence_art26_iv.png")

    # the code changes: ART26-VI brings 12 months on the first occurrence, and João has no ART26-VI before
    form.select_code("ART26-VI")
    form.refresh_preview()
    text = form.panel.plain_text()
    assert "suspensão de 12 meses" in text and "Sem reincidência" in text
    assert "suspensão de 30 dias" not in text


def test_art27_recurrence_proposes_vehicle_seizure_and_art13_item_only_for_art26_iii(qtbot, db, people, register,
                                                                                    lookups):
    """Art. 27 parágrafo único: illegal transport again → seizure of the vehicle; Art. 26 III records the duty of
    Art. 13 (the item combo appears only for that code)."""
    make_final(db, people, draw_up(db, people.fiscal, "ART27", date(2026, 2, 10), driver_id=register.maria))
    form = open_form(qtbot, db, people, lookups)
    pick(form.driver_picker, "conceicao")
    form.select_code("ART27")
    form.refresh_preview()
    text = form.panel.plain_text()
    assert "apreensão do veículo" in text and "40 UPFM = R$ 4.498,00" in text
    assert not form.art13_visible()
    form.select_code("ART26-III")
    assert form.art13_visible()
    form.select_art13_item("XIII")
    assert form.draft().art13_item == "XIII"
    form.select_code("ART26-I")
    assert not form.art13_visible() and form.draft().art13_item is None


def test_saving_the_auto_shows_its_number(qtbot, db, people, register, lookups, messages, tmp_path):
    """Art. 19: the auto is drawn up with the next NNNN/AAAA number; the evidence file goes with it."""
    form = open_form(qtbot, db, people, lookups)
    form.place_edit.setText("Rodovia Emanuel Pinheiro, km 51")
    pick(form.driver_picker, "joao")
    pick(form.platform_picker, "roda")
    pick(form.vehicle_picker, "qbc")
    form.select_code("ART26-III")
    form.select_art13_item("VII")
    form.description_edit.setPlainText("Condutor fumando no interior do veículo em trânsito.")
    evidence = tmp_path / "foto.png"
    evidence.write_bytes(tiny_png())
    form.add_evidence_file(str(evidence))
    assert form.save()
    saved = form.saved
    assert saved.number.endswith("/2026") and len(saved.number) == 9
    assert f"Auto de infração nº {saved.number} lavrado" in form.number_label.text()
    assert messages and saved.number in messages[-1][2]
    assert saved.art13_item == "VII" and saved.driver_id == register.joao and saved.platform_id == register.platform
    from desktop.services import autos

    detail = autos.get_auto(db, people.fiscal, saved.id)
    assert [d.filename for d in detail.evidence] == ["foto.png"]


def test_missing_data_is_shown_next_to_the_fields(qtbot, db, people, register, lookups):
    form = open_form(qtbot, db, people, lookups)
    form.select_code("ART26-III")           # needs the Art. 13 item, none chosen; no infractor; no place
    assert not form.save()
    assert form.saved is None
    assert form.errors.is_invalid("place")
    assert form.errors.is_invalid("art13_item")
    assert form.errors.is_invalid("driver_id") or "infrator" in form.general_error.text().lower()
    shoot(form, "auto_form_problems.png")


def test_issue12_12_the_form_proposes_the_time_in_cuiaba_not_the_machines_zone(qtbot, db, people, lookups):
    """Every legal date-time is America/Cuiabá: the auto form proposes the office's clock (the first wave took
    the machine's naive time, so an auto drawn up at 04:58 in Cuiabá printed 08:56 on a UTC machine)."""
    from datetime import datetime, timezone

    from desktop.domain import clock

    instant = datetime(2026, 6, 10, 8, 58, tzinfo=timezone.utc)     # 04:58 in Cuiabá (UTC−4)
    with clock.frozen(instant):
        dialog = open_form(qtbot, db, people, lookups)
    assert (dialog.time_edit.time().hour(), dialog.time_edit.time().minute()) == (4, 58)
