package dev.ratchet.host;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports for servers this process is about to start or have started: free when handed out, and
 * never handed out twice by one process. A port stays free until its server binds it, so without
 * that memory two servers started one after the other (a member's HTTP and cluster ports, say)
 * could both be given it.
 */
public final class FreePorts {

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {
  }

  /** A loopback port that is free now and that this process has not handed out before. */
  public static int next() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket s = new ServerSocket(0)) {
        int port = s.getLocalPort();
        if (HANDED_OUT.add(port)) {
          return port;
        }
      }
    }
    throw new IOException("found no free port that this process had not handed out already");
  }
}
