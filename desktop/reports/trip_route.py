"""The route of one trip for the case file (Art. 4 §1 III): the line of the reported points on a plain drawing (no
map tiles: the office has no internet), start and end marked, a scale bar, the coordinates of the ends and the
trip's facts (platform, driver's CPF, plate, times, distance, fare, hail type). No passenger data exists to print."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from desktop.domain.trips import project, route_length_m, scale_bar_m, scale_label
from desktop.reports.common import DocumentMeta, MunicipalityHeader, fmt_datetime
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import Platform
from desktop.models.platforms import TripRoutePoint, TripRow
from desktop.reports import records
from desktop.domain.formatting import format_cpf, format_money, format_plate

HAIL_LABELS = {"app": "aplicativo", "street_hail": "via pública (Art. 7º)", "phone_dispatch": "central telefônica",
               "phone": "telefone", "text": "mensagem"}


@dataclass(frozen=True, slots=True)
class TripRouteContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    trip_id: int
    external_id: str
    platform_name: str
    driver_cpf: str
    plate: str
    started_at: datetime
    ended_at: datetime | None
    distance_km: Decimal | None
    fare_total: Decimal | None
    hail_type: str | None
    points: tuple[tuple[float, float], ...]   # (lat, lon) in order


def build_context(session, trip_id: int, meta: DocumentMeta) -> TripRouteContext:

    row = session.get(TripRow, trip_id)
    if row is None:
        raise NotFound(f"Viagem não encontrada (código {trip_id}).")
    points = tuple((lat, lon) for lat, lon in session.execute(
        select(TripRoutePoint.lat, TripRoutePoint.lon).where(TripRoutePoint.trip_id == trip_id)
        .order_by(TripRoutePoint.at, TripRoutePoint.id)).all())
    if not points and row.origin_lat is not None and row.destination_lat is not None:
        points = ((row.origin_lat, row.origin_lon), (row.destination_lat, row.destination_lon))
    platform = session.get(Platform, row.platform_id)
    return TripRouteContext(records.header(session), meta, row.id, row.external_id,
                            platform.trade_name or platform.legal_name, row.driver_cpf or "", row.plate or "",
                            row.started_at, row.ended_at, row.distance_km, row.fare_total, row.hail_type, points)


def _drawing(points, width: float, height: float):
    from reportlab.graphics.shapes import Circle, Drawing, Line, PolyLine, Rect, String  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    regular, bold = _pdf.fonts()
    d = Drawing(width, height)
    d.add(Rect(0, 0, width, height, strokeColor=colors.grey, fillColor=None, strokeWidth=0.5))
    if len(points) < 2:
        d.add(String(width / 2, height / 2, "A plataforma não informou o trajeto desta viagem.", fontName=regular,
                     fontSize=9, textAnchor="middle"))
        return d
    xy = project(points)
    xs, ys = [p[0] for p in xy], [p[1] for p in xy]
    pad = 24
    k = min((width - 2 * pad) / max(max(xs) - min(xs), 50.0), (height - 2 * pad) / max(max(ys) - min(ys), 50.0))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2

    def at(p):
        return width / 2 + (p[0] - cx) * k, height / 2 + (p[1] - cy) * k

    flat = [v for p in xy for v in at(p)]
    d.add(PolyLine(flat, strokeColor=colors.HexColor("#00838f"), strokeWidth=2))
    (x0, y0), (x1, y1) = at(xy[0]), at(xy[-1])
    d.add(Circle(x0, y0, 4, fillColor=colors.HexColor("#2e7d32"), strokeColor=colors.white))
    d.add(Circle(x1, y1, 4, fillColor=colors.HexColor("#c62828"), strokeColor=colors.white))
    d.add(String(x0 + 6, y0 + 4, "Início", fontName=bold, fontSize=8))
    d.add(String(x1 + 6, y1 + 4, "Fim", fontName=bold, fontSize=8))
    bar = scale_bar_m((width - 2 * pad) / k)
    length = bar * k
    d.add(Line(pad, 12, pad + length, 12, strokeWidth=2))
    d.add(Line(pad, 8, pad, 16))
    d.add(Line(pad + length, 8, pad + length, 16))
    d.add(String(pad + length + 4, 9, scale_label(bar), fontName=regular, fontSize=8))
    d.add(String(width - 6, height - 12, "N ↑", fontName=bold, fontSize=9, textAnchor="end"))
    return d


def render(ctx: TripRouteContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import MARGIN, PAGE_W  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"TRAJETO DA VIAGEM {ctx.external_id}",
                             "Dados compartilhados pela plataforma (Art. 4º, §1º, I a III da Lei nº 2.103/2025)")
    start, end = (ctx.points[0], ctx.points[-1]) if ctx.points else (None, None)

    def coord(p):
        return f"{p[0]:.6f}, {p[1]:.6f}" if p else "—"

    length = route_length_m(ctx.points) if len(ctx.points) > 1 else 0
    story.append(_pdf.field_table([
        ("Plataforma", ctx.platform_name),
        ("Condutor (CPF)", format_cpf(ctx.driver_cpf) if ctx.driver_cpf else "—"),
        ("Placa", format_plate(ctx.plate) if ctx.plate else "—"),
        ("Início", fmt_datetime(ctx.started_at)),
        ("Fim", fmt_datetime(ctx.ended_at) if ctx.ended_at else "—"),
        ("Distância informada", f"{ctx.distance_km} km" if ctx.distance_km is not None else "—"),
        ("Comprimento do traçado", f"{length / 1000:.2f} km ({len(ctx.points)} pontos)".replace(".", ",")),
        ("Valor total", format_money(ctx.fare_total) if ctx.fare_total is not None else "—"),
        ("Tipo de chamada", HAIL_LABELS.get(ctx.hail_type or "", ctx.hail_type or "—")),
        ("Coordenadas do início", coord(start)),
        ("Coordenadas do fim", coord(end)),
    ]))
    story.append(_pdf.spacer(4))
    story.append(_drawing(ctx.points, PAGE_W - 2 * MARGIN, 120 * mm))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p("Desenho sem mapa de fundo, norte para cima, em escala; coordenadas em graus decimais "
                        "(WGS 84). Nenhum dado de passageiro é recebido ou guardado (Art. 4º, caput)."))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Trajeto da viagem {ctx.external_id}", story)
