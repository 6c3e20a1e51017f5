package dev.ratchet.connectors.provider;

/**
 * Filters for {@link ToolProvider#listTools(ListToolsOptions)}; every field may be null.
 *
 * @param toolkit only tools of this toolkit
 * @param search words to look for in tool names and descriptions
 * @param cursor the {@code nextCursor} of the previous page
 * @param pageSize how many tools per page (the provider may cap it)
 */
public record ListToolsOptions(String toolkit, String search, String cursor, Integer pageSize) {

  public static ListToolsOptions all() {
    return new ListToolsOptions(null, null, null, null);
  }

  public static ListToolsOptions toolkit(String toolkit) {
    return new ListToolsOptions(toolkit, null, null, null);
  }

  public ListToolsOptions withSearch(String search) {
    return new ListToolsOptions(toolkit, search, cursor, pageSize);
  }

  public ListToolsOptions withCursor(String cursor) {
    return new ListToolsOptions(toolkit, search, cursor, pageSize);
  }

  public ListToolsOptions withPageSize(int pageSize) {
    return new ListToolsOptions(toolkit, search, cursor, pageSize);
  }
}
