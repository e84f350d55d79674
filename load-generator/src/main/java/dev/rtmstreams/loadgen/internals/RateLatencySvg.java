package dev.rtmstreams.loadgen.internals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Renders the {@code --find-max} probes as a standalone SVG document ({@code p99-vs-rate.svg}): p99 latency
 * (log-scale y) against the target rate (linear x), one polyline per mode through its probes in rate order; a
 * passing probe is a filled dot, a failing one a hollow dot. Self-contained (no scripts, no external styles, a white
 * background), so it can be embedded in Markdown with {@code ![p99 vs rate](p99-vs-rate.svg)}.
 */
public final class RateLatencySvg {

    private static final String[] COLORS = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
    };
    private static final int W = 800;
    private static final int H = 420;
    private static final int ML = 70;
    private static final int MR = 20;
    private static final int MT = 50;
    private static final int MB = 50;

    private RateLatencySvg() {}

    /**
     * Renders the plot.
     *
     * @param results one search result per mode
     * @return the SVG document (XML)
     */
    public static String render(List<FindMax.Result> results) {
        double xMax = 1;
        double yMin = Double.MAX_VALUE;
        double yMax = 0;
        for (FindMax.Result r : results) {
            for (FindMax.Probe p : r.probes()) {
                xMax = Math.max(xMax, p.rate());
                if (p.p99() != null && p.p99() > 0) {
                    yMin = Math.min(yMin, p.p99());
                    yMax = Math.max(yMax, p.p99());
                }
            }
        }
        if (yMin == Double.MAX_VALUE) {
            yMin = 1;
            yMax = 10;
        }
        double step = niceStep(xMax * 1.05 / 6);
        int ticks = (int) Math.ceil(xMax * 1.05 / step);
        xMax = ticks * step;
        LatencyAxes axes = new LatencyAxes(W, H, ML, MR, MT, MB, yMin, yMax, String.format("%n"));
        int pw = axes.pw;
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                W,
                H,
                W,
                H));
        sb.append(String.format(
                Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        sb.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"16\" font-size=\"13\">p99 latency vs input rate "
                        + "(filled: sustained, hollow: not sustained)</text>%n",
                ML));
        axes.yGrid(sb);
        for (int i = 0; i <= ticks; i++) {
            double v = step * i;
            axes.xTick(sb, ML + v / xMax * pw, String.format(Locale.ROOT, "%.0f", v));
        }
        axes.xTitleAndBorder(sb, "input rate (events/s)");
        for (int s = 0; s < results.size(); s++) {
            FindMax.Result r = results.get(s);
            String color = COLORS[s % COLORS.length];
            List<FindMax.Probe> sorted = new ArrayList<>(r.probes());
            sorted.sort(Comparator.comparingDouble(FindMax.Probe::rate));
            StringBuilder points = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            for (FindMax.Probe p : sorted) {
                if (p.p99() == null || !(p.p99() > 0)) {
                    continue;
                }
                double x = ML + p.rate() / xMax * pw;
                double y = axes.yOfLog10(Math.log10(p.p99()));
                points.append(points.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
                dots.append(String.format(
                        Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
                                + "stroke-width=\"1.5\"><title>%s %.0f/s p99 %.1f ms: %s</title></circle>%n",
                        x,
                        y,
                        p.pass() ? color : "white",
                        color,
                        esc(r.mode()),
                        p.rate(),
                        p.p99(),
                        esc(p.reason())));
            }
            sb.append("<polyline data-mode=\"")
                    .append(esc(r.mode()))
                    .append("\" points=\"")
                    .append(points)
                    .append("\" fill=\"none\" stroke=\"")
                    .append(color)
                    .append("\" stroke-width=\"1.8\"/>\n");
            sb.append(dots);
            int lx = ML + 10 + (s % 4) * 175;
            int ly = 30 + (s / 4) * 14;
            sb.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>%n",
                    lx,
                    ly - 4,
                    color));
            String max =
                    r.maxSustainedRate() == null ? "none" : String.format(Locale.ROOT, "%.0f/s", r.maxSustainedRate());
            sb.append(String.format(
                    Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s (max %s)</text>%n", lx + 16, ly, esc(r.mode()), max));
        }
        return sb.append("</svg>\n").toString();
    }

    private static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= raw) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}
