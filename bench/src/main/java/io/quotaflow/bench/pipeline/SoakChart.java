package io.quotaflow.bench.pipeline;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws a soak run as a PNG, one small panel per {@link SoakMetric} over the minutes, with plain
 * Java2D (headless). Each panel's y axis starts at zero, so a flat line looks flat at its true
 * scale; the second and last quarters the verdict compares are shaded, with their means dashed.
 */
final class SoakChart {
  private static final int COLUMNS = 3;
  private static final int PANEL_WIDTH = 420;
  private static final int PANEL_HEIGHT = 210;
  private static final int HEADER = 44;
  private static final int LEFT = 62;
  private static final int RIGHT = 14;
  private static final int TOP = 26;
  private static final int BOTTOM = 30;
  private static final Color LINE = new Color(0x1f, 0x5f, 0xa8);
  private static final Color QUARTER = new Color(0xee, 0xee, 0xee);
  private static final Color NOT_FLAT = new Color(0xb0, 0x20, 0x20);

  private SoakChart() {}

  /** Writes the chart of {@code samples} (at least 2) with {@code title} on top to {@code png}. */
  static void write(
      final List<SoakSample> samples, final SoakVerdict verdict, final String title, final Path png)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    final SoakMetric[] metrics = SoakMetric.values();
    final int rows = (metrics.length + COLUMNS - 1) / COLUMNS;
    final BufferedImage image =
        new BufferedImage(
            COLUMNS * PANEL_WIDTH, HEADER + rows * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
    final Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, 12, 28);
      for (int i = 0; i < metrics.length; i++) {
        panel(
            g,
            samples,
            verdict.line(metrics[i]),
            (i % COLUMNS) * PANEL_WIDTH,
            HEADER + (i / COLUMNS) * PANEL_HEIGHT);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static void panel(
      final Graphics2D g,
      final List<SoakSample> samples,
      final SoakVerdict.Line verdict,
      final int x0,
      final int y0) {
    final SoakMetric metric = verdict.metric();
    final int n = samples.size();
    final double minX = samples.get(0).minute();
    final double maxX = Math.max(minX + 1, samples.get(n - 1).minute());
    double maxY = 0;
    for (final SoakSample s : samples) {
      maxY = Math.max(maxY, s.get(metric));
    }
    maxY = maxY <= 0 ? 1 : maxY * 1.15;
    final int left = x0 + LEFT;
    final int right = x0 + PANEL_WIDTH - RIGHT;
    final int top = y0 + TOP;
    final int bottom = y0 + PANEL_HEIGHT - BOTTOM;
    final Scale scale = new Scale(minX, maxX, maxY, left, right, top, bottom);

    // The quarters the verdict compares, as SoakVerdict cuts them.
    g.setColor(QUARTER);
    shade(g, scale, samples.get(n / 4).minute(), samples.get(n / 2 - 1).minute(), top, bottom);
    shade(g, scale, samples.get(n - n / 4).minute(), samples.get(n - 1).minute(), top, bottom);

    g.setColor(Color.GRAY);
    g.setStroke(new BasicStroke(1f));
    g.drawLine(left, bottom, right, bottom);
    g.drawLine(left, top, left, bottom);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.setColor(Color.DARK_GRAY);
    g.drawString(axis(maxY), x0 + 4, top + 4);
    g.drawString("0", x0 + LEFT - 12, bottom + 4);
    g.drawString(String.format(Locale.ROOT, "%.0f", minX), left - 3, bottom + 14);
    final String end = String.format(Locale.ROOT, "%.0f min", maxX);
    g.drawString(end, right - g.getFontMetrics().stringWidth(end), bottom + 14);

    g.setColor(Color.GRAY);
    g.setStroke(
        new BasicStroke(
            1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f}, 0));
    mean(
        g,
        scale,
        samples.get(n / 4).minute(),
        samples.get(n / 2 - 1).minute(),
        verdict.secondQuarter());
    mean(
        g,
        scale,
        samples.get(n - n / 4).minute(),
        samples.get(n - 1).minute(),
        verdict.lastQuarter());

    g.setColor(LINE);
    g.setStroke(new BasicStroke(1.6f));
    final Path2D line = new Path2D.Double();
    for (int i = 0; i < n; i++) {
      final double x = scale.x(samples.get(i).minute());
      final double y = scale.y(samples.get(i).get(metric));
      if (i == 0) {
        line.moveTo(x, y);
      } else {
        line.lineTo(x, y);
      }
    }
    g.draw(line);

    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    g.setColor(verdict.flat() ? Color.BLACK : NOT_FLAT);
    g.drawString(metric.title() + (verdict.flat() ? "" : "  NOT FLAT"), x0 + 8, y0 + 16);
  }

  private static void shade(
      final Graphics2D g,
      final Scale scale,
      final double from,
      final double to,
      final int top,
      final int bottom) {
    final int a = (int) Math.round(scale.x(from));
    final int b = (int) Math.round(scale.x(to));
    g.fillRect(a, top, Math.max(1, b - a), bottom - top);
  }

  private static void mean(
      final Graphics2D g, final Scale scale, final double from, final double to, final double y) {
    final int yy = (int) Math.round(scale.y(y));
    g.drawLine((int) Math.round(scale.x(from)), yy, (int) Math.round(scale.x(to)), yy);
  }

  private static String axis(final double value) {
    return value >= 1_000
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.3g", value);
  }

  /** Data to pixels within a panel's plot area. */
  private record Scale(
      double minX, double maxX, double maxY, int left, int right, int top, int bottom) {
    double x(final double minute) {
      return left + (minute - minX) / (maxX - minX) * (right - left);
    }

    double y(final double value) {
      return bottom - value / maxY * (bottom - top);
    }
  }
}
