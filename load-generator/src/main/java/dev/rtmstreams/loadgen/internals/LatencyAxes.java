package dev.rtmstreams.loadgen.internals;

import java.util.Locale;

/**
 * The frame both latency charts draw ({@link HtmlReport}'s and {@link RateLatencySvg}'s): a plot area inside margins,
 * a log-scale y axis in milliseconds with a grid line and a label per power of ten, grid lines and labels on a linear
 * x axis where the chart places them, the x axis title and a border. Each element is followed by {@code newline}.
 */
final class LatencyAxes {

    private final int height;
    private final int left;
    private final int top;
    private final String newline;
    /** Width of the plot area. */
    final int pw;
    /** Height of the plot area. */
    final int ph;
    /** Powers of ten at the bottom and the top of the y axis. */
    private final double ly0;

    private final double ly1;

    /**
     * @param width the chart's width
     * @param height the chart's height
     * @param left the left margin
     * @param right the right margin
     * @param top the top margin
     * @param bottom the bottom margin
     * @param yMin the smallest latency to show, ms
     * @param yMax the largest latency to show, ms
     * @param newline what follows each element ("" or a line separator)
     */
    LatencyAxes(
            int width, int height, int left, int right, int top, int bottom, double yMin, double yMax, String newline) {
        this.height = height;
        this.left = left;
        this.top = top;
        this.newline = newline;
        this.pw = width - left - right;
        this.ph = height - top - bottom;
        double lo = Math.floor(Math.log10(Math.max(0.01, yMin)));
        double hi = Math.ceil(Math.log10(Math.max(yMax, yMin * 1.01)));
        this.ly0 = lo;
        this.ly1 = hi <= lo ? lo + 1 : hi;
    }

    /** @return the y coordinate of a latency given as its base-10 logarithm */
    double yOfLog10(double log10Ms) {
        return top + ph - (log10Ms - ly0) / (ly1 - ly0) * ph;
    }

    /** Draws a grid line and a label for every power of ten on the y axis. */
    void yGrid(StringBuilder sb) {
        for (double e = ly0; e <= ly1 + 1e-9; e++) {
            double y = yOfLog10(e);
            sb.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>",
                    left,
                    y,
                    left + pw,
                    y));
            sb.append(newline);
            sb.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>",
                    left - 4,
                    y + 4,
                    trim(Math.pow(10, e))));
            sb.append(newline);
        }
    }

    /**
     * Draws a grid line and a label on the x axis.
     *
     * @param x where
     * @param label the label, escaped for XML
     */
    void xTick(StringBuilder sb, double x, String label) {
        sb.append(String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>",
                x,
                top,
                x,
                top + ph));
        sb.append(newline);
        sb.append(String.format(
                Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, top + ph + 15, label));
        sb.append(newline);
    }

    /**
     * Draws the x axis title and the border of the plot area.
     *
     * @param title the title, escaped for XML
     */
    void xTitleAndBorder(StringBuilder sb, String title) {
        sb.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                left + pw / 2,
                height - 10,
                title));
        sb.append(newline);
        sb.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                left,
                top,
                pw,
                ph));
        sb.append(newline);
    }

    /** @return an axis label: whole numbers without decimals, fractions as they are */
    static String trim(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }
}
