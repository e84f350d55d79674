package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class RateLatencySvgTest {

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static FindMax.Probe probe(double rate, boolean pass, Double p99) {
        return new FindMax.Probe(rate, pass, pass ? "ok" : "latency grew: a < b & c", 1.0, p99, null);
    }

    @Test
    void shouldWriteValidSvgWithOnePolylinePerModeWhenRenderingProbes() throws Exception {
        List<FindMax.Result> results = List.of(
                new FindMax.Result(
                        "echo",
                        11250.0,
                        List.of(
                                probe(5000, true, 3.0),
                                probe(16875, false, 900.0),
                                probe(7500, true, 4.0),
                                probe(11250, true, 6.0))),
                new FindMax.Result(
                        "real-time-new<&>", 5000.0, List.of(probe(5000, true, 12.0), probe(7500, false, 2500.0))),
                new FindMax.Result("micro-batch", null, List.of(probe(5000, false, null))));

        Document doc = parse(RateLatencySvg.render(results));

        Element svg = doc.getDocumentElement();
        assertThat(svg.getLocalName()).isEqualTo("svg");
        assertThat(svg.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(svg.getAttribute("viewBox")).isNotEmpty();
        NodeList lines = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline");
        assertThat(lines.getLength()).isEqualTo(3);
        assertThat(((Element) lines.item(1)).getAttribute("data-mode")).isEqualTo("real-time-new<&>");
        // points in rate order: x increases along the echo line
        String[] pts = ((Element) lines.item(0)).getAttribute("points").split(" ");
        assertThat(pts).hasSize(4);
        double prev = -1;
        for (String p : pts) {
            double x = Double.parseDouble(p.split(",")[0]);
            assertThat(x).isGreaterThan(prev);
            prev = x;
        }
        // a probe without p99 is not drawn; passing dots are filled, failing ones hollow
        NodeList dots = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle");
        assertThat(dots.getLength()).isEqualTo(6);
        int hollow = 0;
        for (int i = 0; i < dots.getLength(); i++) {
            if (((Element) dots.item(i)).getAttribute("fill").equals("white")) {
                hollow++;
            }
        }
        assertThat(hollow).isEqualTo(2);
    }

    @Test
    void shouldPlaceHigherP99HigherOnALogScale() throws Exception {
        Document doc = parse(RateLatencySvg.render(List.of(new FindMax.Result(
                "m", 2000.0, List.of(probe(1000, true, 1.0), probe(2000, true, 10.0), probe(3000, false, 100.0))))));

        String[] pts = ((Element) doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline")
                        .item(0))
                .getAttribute("points")
                .split(" ");
        double y1 = Double.parseDouble(pts[0].split(",")[1]);
        double y2 = Double.parseDouble(pts[1].split(",")[1]);
        double y3 = Double.parseDouble(pts[2].split(",")[1]);
        // SVG y grows downwards; equal ratios give equal steps on a log axis
        assertThat(y1).isGreaterThan(y2);
        assertThat(y2).isGreaterThan(y3);
        assertThat(y1 - y2).isCloseTo(y2 - y3, org.assertj.core.data.Offset.offset(0.2));
    }

    @Test
    void shouldStillBeValidWhenThereAreNoResults() throws Exception {
        Document doc = parse(RateLatencySvg.render(List.of()));

        assertThat(doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline")
                        .getLength())
                .isZero();
    }
}
