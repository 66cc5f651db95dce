"""Locating the cut marks of a sticker or credential on a rasterized PDF (issue 17): the archived file and the
sheet a printer received are rasterized by pdftoppm at the same resolution and each of the 8 marks around the
cut rectangle is found by its ink; `compare` asserts they agree within TOLERANCE_MM and the sheet is A4."""
import io
import subprocess

from PIL import Image
from pypdf import PdfReader

RASTER_DPI = 200
MM = 72 / 25.4                       # points per millimetre
TOLERANCE_MM = 0.5
MARK_GAP_MM, MARK_LENGTH_MM = 1.5, 4.0   # desktop.reports.sticker/_credential _crop_marks

def pdf_printer(path, dpi: int):
    from PySide6.QtPrintSupport import QPrinter
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    printer.setResolution(dpi)
    return printer


def raster(pdf_path, page: int = 1) -> Image.Image:
    out = subprocess.run(["pdftoppm", "-r", str(RASTER_DPI), "-gray", "-f", str(page), "-l", str(page),
                          str(pdf_path)], check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(out)).convert("L")


def ink_centroid(image: Image.Image, box_mm, axis: str) -> float:
    """The ink-weighted centre (mm from the sheet's top-left) along `axis` ("x" or "y") inside box_mm =
    (left, top, right, bottom) in mm from the top-left corner. Fails when the box holds no mark."""
    px = RASTER_DPI / 25.4
    left, top, right, bottom = (round(v * px) for v in box_mm)
    region = image.crop((left, top, right, bottom))
    width, height = region.size
    pixels = region.load()
    total = weighted = 0.0
    for j in range(height):
        for i in range(width):
            ink = 255 - pixels[i, j]
            if ink > 40:
                total += ink
                weighted += ink * ((left + i) if axis == "x" else (top + j))
    assert total > 255 * 5, f"nenhuma marca de corte em {box_mm} mm"
    return (weighted / total + 0.5) / px


def marks(image: Image.Image, x_pt: float, y_pt: float, w_pt: float, h_pt: float, page_h_pt: float):
    """The measured position (mm) of each of the 8 cut marks around the rectangle (x, y, w, h) in PDF points
    (origin bottom-left): for each corner, the y of its horizontal mark and the x of its vertical mark."""
    measured = {}
    near, far = MARK_GAP_MM + 0.5, MARK_GAP_MM + MARK_LENGTH_MM - 0.5
    for name_x, cx, dx in (("esq", x_pt, -1), ("dir", x_pt + w_pt, 1)):
        for name_y, cy, dy in (("inf", y_pt, -1), ("sup", y_pt + h_pt, 1)):
            cx_mm, cy_mm = cx / MM, (page_h_pt - cy) / MM      # from the top-left, y downwards
            xs = sorted((cx_mm + dx * near, cx_mm + dx * far))
            horizontal = ink_centroid(image, (xs[0], cy_mm - 1.2, xs[1], cy_mm + 1.2), "y")
            ys = sorted((cy_mm - dy * near, cy_mm - dy * far))
            vertical = ink_centroid(image, (cx_mm - 1.2, ys[0], cx_mm + 1.2, ys[1]), "x")
            measured[f"{name_x}-{name_y}"] = (vertical, horizontal, cx_mm, cy_mm)
    return measured


def compare(archived_pdf, printed_pdf, rect_pt):
    archived, printed = PdfReader(str(archived_pdf)), PdfReader(str(printed_pdf))
    assert len(printed.pages) == len(archived.pages)
    for a_page, p_page in zip(archived.pages, printed.pages):
        assert abs(float(p_page.mediabox.width) - float(a_page.mediabox.width)) / MM <= TOLERANCE_MM
        assert abs(float(p_page.mediabox.height) - float(a_page.mediabox.height)) / MM <= TOLERANCE_MM
        assert abs(float(p_page.mediabox.width) / MM - 210) <= TOLERANCE_MM       # A4 on paper
        assert abs(float(p_page.mediabox.height) / MM - 297) <= TOLERANCE_MM
    page_h = float(archived.pages[0].mediabox.height)
    archived_marks = marks(raster(archived_pdf), *rect_pt, page_h)
    printed_marks = marks(raster(printed_pdf), *rect_pt, page_h)
    worst = 0.0
    for corner, (ax, ay, cx, cy) in archived_marks.items():
        # the finder finds the marks where the document draws them…
        assert abs(ax - cx) <= 0.3 and abs(ay - cy) <= 0.3, (corner, ax, ay, cx, cy)
        px, py = printed_marks[corner][:2]
        # …and on the printed sheet they are where the archived file has them
        worst = max(worst, abs(px - ax), abs(py - ay))
        assert abs(px - ax) <= TOLERANCE_MM and abs(py - ay) <= TOLERANCE_MM, (corner, (ax, ay), (px, py))
    return worst


def sticker_page_rect():
    """The cut rectangle (x, y, w, h in points) of a one-per-page sticker (desktop.reports.sticker LAYOUT_PAGE)."""
    from desktop.reports import _pdf, sticker
    w, h = sticker.STICKER_W_MM * MM * sticker.PAGE_SCALE, sticker.STICKER_H_MM * MM * sticker.PAGE_SCALE
    return (_pdf.PAGE_W - w) / 2, (_pdf.PAGE_H - h) / 2 + 10 * MM, w, h


def credential_rect():
    """The cut rectangle of the credential (front and back side by side, desktop.reports.credential)."""
    from desktop.reports import _pdf, credential
    w, h = credential.CARD_W_MM * MM, credential.CARD_H_MM * MM
    return (_pdf.PAGE_W - 2 * w) / 2, _pdf.PAGE_H - 70 * MM - h, 2 * w, h
