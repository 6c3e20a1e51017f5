package dev.ratchet.runtime.impl;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

import java.util.Map;
import java.util.TreeMap;

/**
 * A logging binding that keeps an MDC and prints, for each line, the MDC it was logged with and
 * the message, as a binding printing MDC keys (logback's {@code %X}) would. Chosen in a child JVM
 * with {@code -Dslf4j.provider=dev.ratchet.runtime.impl.MdcPrintingLogs}.
 */
public final class MdcPrintingLogs implements SLF4JServiceProvider {

  private final MDCAdapter mdc = new BasicMDCAdapter();
  private final IMarkerFactory markers = new BasicMarkerFactory();

  @Override
  public ILoggerFactory getLoggerFactory() {
    return Printer::new;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
  }

  private static final class Printer extends LegacyAbstractLogger {

    Printer(String name) {
      this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
      return true;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String format, Object[] args,
                                               Throwable err) {
      Map<String, String> context = MDC.getCopyOfContextMap();
      System.out.println(level + " " + new TreeMap<>(context == null ? Map.of() : context) + " "
          + MessageFormatter.basicArrayFormat(format, args));
      System.out.flush();
    }
  }
}
