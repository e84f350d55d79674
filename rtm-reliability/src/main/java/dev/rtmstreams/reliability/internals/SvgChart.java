package dev.rtmstreams.reliability.internals;

import java.util.List;
import java.util.Locale;

/** A minimal self-contained SVG line chart. */
final class SvgChart {

    private SvgChart() {}

    /**
     * Draws one series.
     *
     * @param title the title
     * @param rows the samples
     * @param x column of the x value (seconds)
     * @param y column of the y value
     * @return an SVG element with a heading
     */
    static String line(String title, List<double[]> rows, int x, int y) {
        int w = 720;
        int h = 220;
        int pad = 60;
        double maxX = 1;
        double maxY = 1;
        for (double[] r : rows) {
            maxX = Math.max(maxX, r[x]);
            maxY = Math.max(maxY, r[y]);
        }
        StringBuilder pts = new StringBuilder();
        for (double[] r : rows) {
            if (r[y] < 0) {
                continue;
            }
            double px = pad + (w - 2 * pad) * r[x] / maxX;
            double py = h - pad / 2.0 - (h - pad) * r[y] / maxY;
            pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        }
        String unit = title.endsWith("bytes")
                ? String.format(Locale.ROOT, "%.1f MiB", maxY / 1048576.0)
                : String.format(Locale.ROOT, "%.0f", maxY);
        return String.format(
                Locale.ROOT,
                "<h3>%s</h3><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">"
                        + "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>"
                        + "<text x=\"4\" y=\"%d\" font-size=\"11\">%s</text><text x=\"4\" y=\"%d\" font-size=\"11\">0</text>"
                        + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%.0f s</text>"
                        + "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"%s\"/></svg>",
                title,
                w,
                h,
                pad,
                pad / 2,
                w - 2 * pad,
                h - pad,
                pad / 2 + 10,
                unit,
                h - pad / 2,
                w - pad - 20,
                h - pad / 2 + 14,
                maxX,
                pts);
    }
}
