"""What the layout tool writes: the 1:1 placement template (SVG, and PDF tiled for A4 or Letter) and
the `readers.toml` that matches it.

The template is drawn once as a list of shapes in board millimetres (`_shapes`); the SVG shows them
whole, the PDF shows them page by page. PDF pages overlap by `OVERLAP_MM`: each page carries its
page number and grid position, alignment crosses at the corners of the part it shares with the next
page, and a dashed line where the next page's paper edge goes. The PDF is drawn with fpdf2 (vector
lines and text in millimetres, pure Python).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from pathlib import Path

from firmware_bridge.board.layout import SCAN_APART_MM, Antenna, Layout

PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 10.0        # unprintable edge most printers leave, with room to spare
FOOTER_MM = 8.0         # the page label under the drawing
OVERLAP_MM = 12.0       # what two neighbouring pages share, to glue them square
SCALE_BAR_MM = 100.0


@dataclass(frozen=True)
class Shape:
    """One thing drawn on the template (a rectangle, a dashed loop, a circle, a text), in board millimetres."""
    kind: str                       # "rect", "dashed", "circle", "text"
    x: float
    y: float
    w: float = 0.0                  # rect: size; circle: radius in w
    h: float = 0.0
    text: str = ""
    size: float = 3.0               # text height, mm
    weight: str = "normal"          # text: "normal" or "bold"


def _shapes(layout: Layout) -> list[Shape]:
    r = layout.rules
    out = [Shape("rect", 0, 0, r.board_w, r.board_h)]
    for a in layout.antennas:
        out += _antenna_shapes(a)
    for s in layout.spots:
        out.append(Shape("circle", s.x, s.y, 1.2))
        out.append(Shape("text", s.x + 2, s.y - 1.5, text=s.name, size=2.2))
    x0, y0 = 8.0, r.board_h - 10.0
    out.append(Shape("rect", x0, y0, SCALE_BAR_MM, 2.0))
    out.append(Shape("text", x0, y0 - 1.5, size=2.5,
                     text=f"this bar is {SCALE_BAR_MM:g} mm: check it before cutting "
                          "(print at 100%, no 'fit to page')"))
    return out


def _antenna_shapes(a: Antenna) -> list[Shape]:
    loop = a.loop
    shapes = [Shape("rect", loop.x0, loop.y0, loop.w, loop.h)]
    if a.footprint != a.loop:
        f = a.footprint
        shapes.append(Shape("dashed", f.x0, f.y0, f.w, f.h))
    shapes.append(Shape("text", loop.x0 + 1.5, loop.y0 + 6.5, text=f"R{a.number}", size=5.5, weight="bold"))
    shapes.append(Shape("text", loop.x0 + 1.5, loop.y1 - 4.0, size=2.0, text=" / ".join(a.locations)))
    shapes.append(Shape("text", loop.x0 + 1.5, loop.y1 - 1.2, size=2.0,
                        text=f"loop {loop.w:.0f} x {loop.h:.0f} mm, Pico {a.region + 1}, SPI{a.bus}"))
    return shapes


def template_svg(layout: Layout) -> str:
    """The whole template at 1:1 (width and height in mm)."""
    r = layout.rules
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{r.board_w:g}mm" height="{r.board_h:g}mm" '
           f'viewBox="0 0 {r.board_w:g} {r.board_h:g}" font-family="sans-serif">',
           f'<title>Rubicon sensing board: {len(layout.antennas)} antennas, 1:1</title>']
    for s in _shapes(layout):
        if s.kind in ("rect", "dashed"):
            dash = ' stroke-dasharray="2 1.5"' if s.kind == "dashed" else ""
            out.append(f'<rect x="{s.x:.2f}" y="{s.y:.2f}" width="{s.w:.2f}" height="{s.h:.2f}" fill="none" '
                       f'stroke="black" stroke-width="0.3"{dash}/>')
        elif s.kind == "circle":
            out.append(f'<circle cx="{s.x:.2f}" cy="{s.y:.2f}" r="{s.w:.2f}"/>')
        else:
            weight = ' font-weight="bold"' if s.weight == "bold" else ""
            out.append(f'<text x="{s.x:.2f}" y="{s.y:.2f}" font-size="{s.size:g}"{weight}>{escape(s.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Tiling:
    """How the 1:1 template is cut into printed pages: the paper, its orientation and size, columns and rows."""
    paper: str
    orientation: str        # "P" or "L"
    page_w: float
    page_h: float
    cols: int
    rows: int
    step_x: float           # board mm from one page's drawing to the next one's
    step_y: float
    area_w: float           # the drawing area on a page
    area_h: float

    @property
    def pages(self) -> int:
        """How many pages the template takes."""
        return self.cols * self.rows


def tiling(layout: Layout, paper: str) -> Tiling:
    """The orientation that needs fewer pages (portrait on a tie)."""
    r = layout.rules
    best = None
    for orientation in ("P", "L"):
        w, h = PAPERS[paper] if orientation == "P" else PAPERS[paper][::-1]
        area_w, area_h = w - 2 * MARGIN_MM, h - 2 * MARGIN_MM - FOOTER_MM
        step_x, step_y = area_w - OVERLAP_MM, area_h - OVERLAP_MM
        cols = max(1, math.ceil((r.board_w - OVERLAP_MM) / step_x))
        rows = max(1, math.ceil((r.board_h - OVERLAP_MM) / step_y))
        t = Tiling(paper, orientation, w, h, cols, rows, step_x, step_y, area_w, area_h)
        if best is None or t.pages < best.pages:
            best = t
    assert best is not None
    return best


def template_pdf(layout: Layout, paper: str, path: str | Path) -> Tiling:
    """Write the tiled template; returns how it was tiled (pages, grid)."""
    from fpdf import FPDF  # the `board` extra: only the layout tool needs it

    t = tiling(layout, paper)
    pdf = FPDF(orientation=t.orientation, unit="mm", format=(PAPERS[paper][0], PAPERS[paper][1]))
    pdf.set_auto_page_break(False)
    pdf.set_title(f"Rubicon sensing board template, 1:1, {paper}")
    pdf.set_creator("rubicon board-layout")
    shapes = _shapes(layout)
    for row in range(t.rows):
        for col in range(t.cols):
            pdf.add_page()
            ox, oy = col * t.step_x, row * t.step_y       # board mm at the drawing area's top left
            with pdf.rect_clip(MARGIN_MM, MARGIN_MM, t.area_w, t.area_h):
                for s in shapes:
                    _draw(pdf, s, MARGIN_MM - ox, MARGIN_MM - oy)
            _page_marks(pdf, t, row, col)
    pdf.output(str(path))
    return t


def _draw(pdf, s: Shape, dx: float, dy: float) -> None:
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    if s.kind in ("rect", "dashed"):
        if s.kind == "dashed":
            pdf.set_dash_pattern(dash=2, gap=1.5)
        pdf.rect(s.x + dx, s.y + dy, s.w, s.h)
        pdf.set_dash_pattern()
    elif s.kind == "circle":
        pdf.set_fill_color(0)
        pdf.circle(x=s.x + dx, y=s.y + dy, radius=s.w, style="F")
    else:
        pdf.set_font("helvetica", "B" if s.weight == "bold" else "", size=s.size / 0.3528)
        pdf.text(s.x + dx, s.y + dy, _latin1(s.text))


def _page_marks(pdf, t: Tiling, row: int, col: int) -> None:
    """Page label; alignment crosses at the shared strip's corners; dashed lines where the next page's
    drawing begins (glue its edge there)."""
    number = row * t.cols + col + 1
    pdf.set_font("helvetica", "", 9)
    pdf.text(MARGIN_MM, t.page_h - MARGIN_MM - 1, f"page {number} of {t.pages}: row {row + 1} of {t.rows}, "
             f"column {col + 1} of {t.cols}. Overlap {OVERLAP_MM:g} mm: lay the next page's crosses on these.")
    pdf.set_line_width(0.2)
    x0, y0, x1, y1 = MARGIN_MM, MARGIN_MM, MARGIN_MM + t.area_w, MARGIN_MM + t.area_h
    pdf.set_dash_pattern(dash=1, gap=1)
    if col < t.cols - 1:
        pdf.line(x1 - OVERLAP_MM, y0, x1 - OVERLAP_MM, y1)
    if row < t.rows - 1:
        pdf.line(x0, y1 - OVERLAP_MM, x1, y1 - OVERLAP_MM)
    pdf.set_dash_pattern()
    for cx in (x0 + OVERLAP_MM / 2, x1 - OVERLAP_MM / 2):
        for cy in (y0 + OVERLAP_MM / 2, y1 - OVERLAP_MM / 2):
            pdf.line(cx - 3, cy, cx + 3, cy)
            pdf.line(cx, cy - 3, cx, cy + 3)


def _latin1(text: str) -> str:
    """The PDF's core font is Latin-1: anything else becomes '?' (map names are plain Latin)."""
    return text.encode("latin-1", "replace").decode("latin-1")


def readers_toml(layout: Layout, scan_pad_region: int | None = None) -> str:
    """The reader map for this layout, in readers.toml's format: one entry per antenna (a shared zone's
    other locations under `also`), then the scan pad. No levy pool or eliminated-area readers: the engine
    knows where a levied or eliminated block is (hardware/WIRING-rfid.md, "What is sensed")."""
    regions = max(a.region for a in layout.antennas) + 1
    pad = len(layout.antennas)
    pad_region = regions - 1 if scan_pad_region is None else scan_pad_region
    lines = [
        "# Reader index -> board location, written by `rubicon board-layout` for the sensing zones of its",
        "# template (antenna R<n> on the template is reader <n>). A zone that serves several locations lists",
        "# the others under `also`: a block sensed there is on one of them, and the table tells which by the",
        "# rules, or asks the mover's phone when more than one is legal. `pico`: the Pico that scans the reader",
        "# (its serial scanner's `first_reader` in the table's configuration is its region's first index).",
        f"# {len(layout.antennas)} antennas ({len(layout.shared)} shared zones) and the scan pad; scanner regions:",
    ]
    for region in range(regions):
        members = [a.number for a in layout.antennas if a.region == region]
        extra = f" and the scan pad ({pad})" if region == pad_region else ""
        lines.append(f"#   Pico {region + 1}: readers {min(members)}-{max(members)}{extra} "
                     f"(its reader 0 is reader {min(members)}: `--first-reader {min(members)}`)")
        order = layout.scan_order(region)
        if order:
            pad_last = (len(members),) if region == pad_region else ()
            lines.append(f"#     pipelined scan order, fields at least {SCAN_APART_MM:g} mm apart (firmware_config.py "
                         f"SCAN_ORDER): {tuple(order) + pad_last}")
    if layout.frame is not None:
        lines.append(f"# Map scale: {layout.frame.how}.")
    lines += ["", "readers = ["]
    for a in layout.antennas:
        also = ""
        if len(a.locations) > 1:
            also = ", also = [" + ", ".join(_q(n) for n in a.locations[1:]) + "]"
        lines.append(f"  {{ index = {a.number}, location = {_q(a.locations[0])}, kind = {_q(a.kind)}{also}, "
                     f"pico = {a.region + 1} }},   # SPI{a.bus}, loop {a.loop.w:.0f} x {a.loop.h:.0f} mm")
    lines.append(f'  {{ index = {pad}, location = "Scan pad", kind = "scan_pad", pico = {pad_region + 1} }},'
                 "   # beside the map")
    lines += ["]", "",
              "# The Pi-wired build's bus (one SPI bus, demultiplexed chip selects); the Pico build ignores it.",
              "[bus]", "spi_bus = 0", "spi_device = 0", "speed_hz = 1000000", "reset_pin = 25",
              "address_pins = [5, 6, 12, 13, 16, 19, 20]", ""]
    return "\n".join(lines)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_all(layout: Layout, out_dir: str | Path) -> dict[str, Tiling | None]:
    """template.svg, template-A4.pdf, template-Letter.pdf, readers.toml in out_dir; what was written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "template.svg").write_text(template_svg(layout), encoding="utf-8")
    (out / "readers.toml").write_text(readers_toml(layout), encoding="utf-8")
    written: dict[str, Tiling | None] = {"template.svg": None, "readers.toml": None}
    for paper in PAPERS:
        written[f"template-{paper}.pdf"] = template_pdf(layout, paper, out / f"template-{paper}.pdf")
    return written
