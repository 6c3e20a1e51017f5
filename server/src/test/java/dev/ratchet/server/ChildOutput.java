package dev.ratchet.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads a child process's output line by line on a daemon thread, into a list the test reads while the child runs. */
public final class ChildOutput {

  private ChildOutput() {
  }

  /** Answers the reader, which ends once the child's output is closed and every line of it is in {@code into}. */
  public static Thread collect(Process child, List<String> into, String threadName) {
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          into.add(line);
        }
      } catch (IOException e) {
        // the child ended
      }
    }, threadName);
    reader.setDaemon(true);
    reader.start();
    return reader;
  }
}
