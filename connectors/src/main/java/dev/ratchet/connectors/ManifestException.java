package dev.ratchet.connectors;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;

/** A connector manifest that cannot be used; the message names the file, the operation and the field. */
public class ManifestException extends RatchetException {

  public ManifestException(String message) {
    super(ErrorCode.INVALID_MANIFEST, message);
  }

  public ManifestException(String message, Throwable cause) {
    super(ErrorCode.INVALID_MANIFEST, message, cause);
  }
}
