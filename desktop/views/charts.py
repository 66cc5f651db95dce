"""Charts laid out for the screen they sit in (issue 27 point 5): the layout adapts to the canvas (constrained),
the legend goes below the plot (never over the bars, never cut), and the axes speak pt-BR through the one locale
module (`8.000`, `1,5`), not `8000`. `tidy(figure)` is applied to every figure a screen shows; matplotlib is
already imported by then (the screens import it when the first chart is drawn)."""
from __future__ import annotations

from decimal import Decimal
from desktop.domain.formatting import format_decimal


def tick_text(value: float, _pos=None) -> str:
    """A tick of an axis in pt-BR: 8.000; 1,5; 0."""

    number = Decimal(str(round(value, 6)))
    if number == number.to_integral_value():
        return format_decimal(number.to_integral_value(), 0)
    return format_decimal(number.normalize())


def tidy(figure) -> None:
    from matplotlib.ticker import FuncFormatter  # lazy: matplotlib loads only when this runs (start-up cost)

    figure.set_layout_engine("constrained")
    for ax in figure.get_axes():
        ax.yaxis.set_major_formatter(FuncFormatter(tick_text))
        legend = ax.get_legend()
        if legend is not None:
            handles, labels = ax.get_legend_handles_labels()
            legend.remove()
            figure.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4), fontsize=8,
                          frameon=False)
