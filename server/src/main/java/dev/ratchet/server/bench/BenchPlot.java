package dev.ratchet.server.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Draws throughput and p99 turn latency against concurrent sessions, one line per series, as a PNG. */
final class BenchPlot {

  /** One point of a series. */
  record Point(int sessions, double callsPerSecond, double p99Millis) {
  }

  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
      new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b)};

  private BenchPlot() {
  }

  static void write(Path file, String title, Map<String, List<Point>> series) throws IOException {
    int w = 1100;
    int h = 460;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, 20, 24);
    panel(g, 60, 60, 440, 330, "durable tool calls/s", series, true);
    panel(g, 600, 60, 440, 330, "turn p99 (ms)", series, false);
    int y = 430;
    int x = 60;
    int i = 0;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (String name : series.keySet()) {
      g.setColor(COLORS[i++ % COLORS.length]);
      g.fillRect(x, y - 9, 14, 10);
      g.setColor(Color.BLACK);
      g.drawString(name, x + 20, y);
      x += 30 + g.getFontMetrics().stringWidth(name);
    }
    g.dispose();
    Files.createDirectories(file.toAbsolutePath().getParent());
    ImageIO.write(img, "png", file.toFile());
  }

  private static void panel(Graphics2D g, int x0, int y0, int pw, int ph, String label,
                            Map<String, List<Point>> series, boolean throughput) {
    double max = 0;
    int minS = Integer.MAX_VALUE;
    int maxS = 1;
    for (List<Point> pts : series.values()) {
      for (Point p : pts) {
        max = Math.max(max, throughput ? p.callsPerSecond() : p.p99Millis());
        minS = Math.min(minS, p.sessions());
        maxS = Math.max(maxS, p.sessions());
      }
    }
    max = max <= 0 ? 1 : max * 1.1;
    double lmin = Math.log10(Math.max(1, minS));
    double lmax = Math.max(lmin + 1, Math.log10(maxS));
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawString(label, x0, y0 - 8);
    g.drawLine(x0, y0 + ph, x0 + pw, y0 + ph);
    g.drawLine(x0, y0, x0, y0 + ph);
    for (int t = 0; t <= 4; t++) {
      double v = max * t / 4;
      int yy = y0 + ph - (int) (ph * t / 4.0);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x0 + 1, yy, x0 + pw, yy);
      g.setColor(Color.DARK_GRAY);
      g.drawString(v >= 100 ? String.format("%,.0f", v) : String.format("%.1f", v), x0 - 55, yy + 4);
    }
    for (int e = (int) Math.floor(lmin); e <= (int) Math.ceil(lmax); e++) {
      int xx = x0 + (int) (pw * (e - lmin) / (lmax - lmin));
      if (xx >= x0 && xx <= x0 + pw) {
        g.drawString(String.format("%,d", (long) Math.pow(10, e)), xx - 10, y0 + ph + 16);
      }
    }
    g.drawString("concurrent sessions (log)", x0 + pw / 2 - 70, y0 + ph + 32);
    int i = 0;
    for (List<Point> pts : series.values()) {
      g.setColor(COLORS[i++ % COLORS.length]);
      g.setStroke(new BasicStroke(2f));
      int px = -1;
      int py = -1;
      for (Point p : pts) {
        double v = throughput ? p.callsPerSecond() : p.p99Millis();
        int xx = x0 + (int) (pw * (Math.log10(Math.max(1, p.sessions())) - lmin) / (lmax - lmin));
        int yy = y0 + ph - (int) (ph * v / max);
        g.fillOval(xx - 4, yy - 4, 8, 8);
        if (px >= 0) {
          g.drawLine(px, py, xx, yy);
        }
        px = xx;
        py = yy;
      }
    }
  }
}
