package dev.ratchet.host;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * The environment a child process starts with: only what a program needs to run (where programs
 * are, whose home, which language and temporary folder), never the whole environment of this JVM,
 * which holds credentials (model API keys, {@code RATCHET_CONNECTION_*}) the child has no business
 * seeing. The official MCP SDKs start their stdio servers the same way.
 */
public final class ChildEnvironment {

  /** The variables passed on when this process has them. */
  public static final List<String> PASSED_ON = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
      "LC_ALL", "TMPDIR",
      // what a Windows program needs to start at all
      "SYSTEMROOT", "SYSTEMDRIVE", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "HOMEDRIVE", "HOMEPATH",
      "USERNAME", "PROCESSOR_ARCHITECTURE", "COMSPEC", "PATHEXT");

  private ChildEnvironment() {
  }

  /** Empties {@code builder}'s environment down to {@link #PASSED_ON}. */
  public static ProcessBuilder minimal(ProcessBuilder builder) {
    Map<String, String> env = builder.environment();
    env.clear();
    Map<String, String> own = System.getenv();
    for (String name : PASSED_ON) {
      String value = own.get(name);
      if (value != null) {
        env.put(name, value);
      }
    }
    return builder;
  }

  /** The absolute path of the executable {@code name} on PATH, or null. */
  public static String onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      File f = new File(dir, name);
      if (f.isFile() && f.canExecute()) {
        return f.getAbsolutePath();
      }
    }
    return null;
  }
}
