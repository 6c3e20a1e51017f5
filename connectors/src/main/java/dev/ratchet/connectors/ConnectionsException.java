package dev.ratchet.connectors;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;

/** Connections configuration that cannot be used; start-up fails with a message naming the file or variable and the field. */
public class ConnectionsException extends RatchetException {

  public ConnectionsException(String message) {
    super(ErrorCode.INVALID_CONNECTIONS, message);
  }

  public ConnectionsException(String message, Throwable cause) {
    super(ErrorCode.INVALID_CONNECTIONS, message, cause);
  }
}
