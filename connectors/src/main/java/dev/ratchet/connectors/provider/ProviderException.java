package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;

/**
 * A provider operation that could not be done, with a stable code: {@code NO_IDENTITY},
 * {@code NOT_ALLOWED}, {@code UNKNOWN_TOOL}, {@code CONNECTION_NOT_OWNED}, {@code UNSUPPORTED},
 * {@code INVALID_CURSOR}, {@code NOT_FOUND}, {@code PROVIDER_ERROR}. Messages never contain credentials.
 */
public class ProviderException extends RatchetException {

  public ProviderException(ErrorCode code, String message) {
    super(code, message);
  }
}
