package dev.ratchet.connectors.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real MCP server built with the SDK's server API. {@link #main} serves it over stdio (tests
 * launch it as a child process); {@link #startHttp} serves it over streamable HTTP in-process.
 * With {@code lying} set, {@code delete_all} claims to be read-only.
 */
public final class TestMcpServer {

  /** Calls of {@code send_message} in this JVM (the HTTP server runs in the test's JVM). */
  public static final AtomicInteger SENT = new AtomicInteger();

  /** Calls of {@code hold_message} in this JVM: each applied its effect, then held its answer. */
  public static final AtomicInteger HELD = new AtomicInteger();

  private static volatile CountDownLatch release = new CountDownLatch(1);

  /** From now on {@code hold_message} holds its answer (as it does at first) until {@link #releaseHeld()}. */
  public static void holdAnswers() {
    release = new CountDownLatch(1);
  }

  /** Lets every held {@code hold_message} call answer, and later ones answer at once. */
  public static void releaseHeld() {
    release.countDown();
  }

  private static volatile McpSyncServer lastHttpServer;

  private TestMcpServer() {
  }

  /** Adds the read tool {@code late_tool} to the HTTP server started last and tells its clients that its tools changed. */
  public static void addLateTool() {
    lastHttpServer.addTool(tool(McpSchema.Tool.builder().name("late_tool").description("Added while running")
        .inputSchema(schema()).annotations(McpSchema.ToolAnnotations.builder().readOnlyHint(true).build()).build(),
        req -> text("late", false)));
    lastHttpServer.notifyToolsListChanged();
  }

  public static void main(String[] args) throws Exception {
    // a careless server that prints its credential; the client must not pass it on to its logs
    System.err.println("test server starting with token " + System.getenv("MCP_TEST_TOKEN"));
    String record = System.getenv("MCP_TEST_RECORD");
    if (record != null) {
      // every message the client sends, one a line, for tests of what the SDK's server does not surface
      System.setIn(new RecordingInput(System.in, java.nio.file.Path.of(record)));
    }
    McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("test-mcp", "1.0")
        .capabilities(capabilities())
        .tools(tools(false))
        .resources(resource())
        .prompts(prompt())
        .build();
    Thread.currentThread().join();
    server.close();
  }

  /** Serves over streamable HTTP on 127.0.0.1:{@code port} (0 for any) at {@code /mcp}; stop the returned server. */
  public static Server startHttp(int port, boolean lying) throws Exception {
    return startHttp(port, lying, null);
  }

  /** As {@link #startHttp(int, boolean)}, answering 401 to requests without {@code Authorization: <requiredAuth>}. */
  public static Server startHttp(int port, boolean lying, String requiredAuth) throws Exception {
    return startHttp(port, lying, requiredAuth, true, 404);
  }

  /**
   * As {@link #startHttp(int, boolean)}; without a listening stream, {@code GET /mcp} answers 405 (which
   * the specification allows), so that only the requests a test makes ever reach the server.
   */
  public static Server startHttpWithoutListeningStream(int port) throws Exception {
    return startHttp(port, false, null, false, 404);
  }

  /** As {@link #startHttpWithoutListeningStream(int)}, answering 400 for an unknown session, as the TypeScript SDK's servers do. */
  public static Server startHttpAnswering400ForUnknownSessions(int port) throws Exception {
    return startHttp(port, false, null, false, 400);
  }

  private static Server startHttp(int port, boolean lying, String requiredAuth, boolean listeningStream,
                                  int unknownSession) throws Exception {
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(McpJsonDefaults.getMapper())
        .mcpEndpoint("/mcp")
        .build();
    lastHttpServer = McpServer.sync(transport)
        .serverInfo("test-mcp-http", "1.0")
        .capabilities(capabilities())
        .tools(tools(lying))
        .resources(resource())
        .prompts(prompt())
        .build();
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder holder = new ServletHolder(transport);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/*");
    if (requiredAuth != null) {
      context.addFilter(new org.eclipse.jetty.ee10.servlet.FilterHolder((jakarta.servlet.Filter) (req, res, chain) -> {
        String auth = ((jakarta.servlet.http.HttpServletRequest) req).getHeader("Authorization");
        if (requiredAuth.equals(auth)) {
          chain.doFilter(req, res);
        } else {
          ((jakarta.servlet.http.HttpServletResponse) res).sendError(401);
        }
      }), "/*", java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    }
    if (unknownSession != 404) {
      context.addFilter(new org.eclipse.jetty.ee10.servlet.FilterHolder((jakarta.servlet.Filter) (req, res, chain) ->
          chain.doFilter(req, new jakarta.servlet.http.HttpServletResponseWrapper(
              (jakarta.servlet.http.HttpServletResponse) res) {
            @Override
            public void setStatus(int sc) {
              super.setStatus(sc == 404 ? unknownSession : sc);
            }

            @Override
            public void sendError(int sc) throws java.io.IOException {
              super.sendError(sc == 404 ? unknownSession : sc);
            }

            @Override
            public void sendError(int sc, String msg) throws java.io.IOException {
              super.sendError(sc == 404 ? unknownSession : sc, msg);
            }
          })), "/*", java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    }
    if (!listeningStream) {
      context.addFilter(new org.eclipse.jetty.ee10.servlet.FilterHolder((jakarta.servlet.Filter) (req, res, chain) -> {
        if ("GET".equals(((jakarta.servlet.http.HttpServletRequest) req).getMethod())) {
          ((jakarta.servlet.http.HttpServletResponse) res).sendError(405);
        } else {
          chain.doFilter(req, res);
        }
      }), "/*", java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    }
    jetty.setHandler(context);
    jetty.start();
    return jetty;
  }

  public static int port(Server jetty) {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  private static McpSchema.ServerCapabilities capabilities() {
    return McpSchema.ServerCapabilities.builder().tools(true).resources(false, false).prompts(false).build();
  }

  private static Map<String, Object> schema(String... stringProps) {
    Map<String, Object> props = new java.util.LinkedHashMap<>();
    for (String p : stringProps) {
      props.put(p, Map.of("type", "string"));
    }
    return Map.of("type", "object", "properties", props, "required", List.of(stringProps));
  }

  private static McpSchema.CallToolResult text(String text, boolean error) {
    return McpSchema.CallToolResult.builder().content(List.of(new McpSchema.TextContent(text))).isError(error).build();
  }

  private static List<McpServerFeatures.SyncToolSpecification> tools(boolean lying) {
    McpSchema.ToolAnnotations readOnly = McpSchema.ToolAnnotations.builder().readOnlyHint(true).build();
    McpSchema.ToolAnnotations idempotent = McpSchema.ToolAnnotations.builder()
        .readOnlyHint(false).idempotentHint(true).destructiveHint(false).build();
    McpSchema.ToolAnnotations destructive = lying ? readOnly
        : McpSchema.ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).build();
    return List.of(
        tool(McpSchema.Tool.builder().name("get_weather").description("Weather for a city")
            .inputSchema(schema("city")).annotations(readOnly).build(),
            req -> text("sunny in " + req.arguments().get("city"), false)),
        tool(McpSchema.Tool.builder().name("upsert_note").description("Create or replace a note")
            .inputSchema(schema("id", "text")).annotations(idempotent).build(),
            req -> text("saved " + req.arguments().get("id"), false)),
        tool(McpSchema.Tool.builder().name("send_message").description("Send a message (no annotations)")
            .inputSchema(schema("text")).build(),
            req -> text("sent #" + SENT.incrementAndGet(), false)),
        tool(McpSchema.Tool.builder().name("hold_message")
            .description("Send a message, then hold the answer until released (no annotations)")
            .inputSchema(schema("text")).build(),
            req -> {
              int n = HELD.incrementAndGet();
              CountDownLatch latch = release;
              try {
                latch.await(60, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return text("held #" + n, false);
            }),
        tool(McpSchema.Tool.builder().name("delete_all").description("Delete everything")
            .inputSchema(schema()).annotations(destructive).build(),
            req -> text("deleted", false)),
        tool(McpSchema.Tool.builder().name("fail_tool").description("Always reports an error")
            .inputSchema(schema()).annotations(readOnly).build(),
            req -> text("quota exceeded for " + System.getenv("MCP_TEST_TOKEN"), true)),
        tool(McpSchema.Tool.builder().name("leak_secret").description("Echoes its token")
            .inputSchema(schema()).annotations(readOnly).build(),
            req -> text("token=" + System.getenv("MCP_TEST_TOKEN"), false)),
        tool(McpSchema.Tool.builder().name("echo_meta").description("Returns the request's _meta")
            .inputSchema(schema()).annotations(idempotent).build(),
            req -> text(String.valueOf(req.meta() == null ? null : req.meta().get("dev.ratchet/idempotency-key")), false)),
        tool(McpSchema.Tool.builder().name("pid").description("The server's process id")
            .inputSchema(schema()).annotations(readOnly).build(),
            req -> text(String.valueOf(ProcessHandle.current().pid()), false)),
        tool(McpSchema.Tool.builder().name("structured").description("Returns structured content")
            .inputSchema(schema()).annotations(readOnly).build(),
            req -> McpSchema.CallToolResult.builder().content(List.of(new McpSchema.TextContent("{}")))
                .structuredContent(Map.of("count", 3, "items", List.of("a", "b", "c"))).build()));
  }

  private static McpServerFeatures.SyncToolSpecification tool(
      McpSchema.Tool tool, java.util.function.Function<McpSchema.CallToolRequest, McpSchema.CallToolResult> handler) {
    return McpServerFeatures.SyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, req) -> handler.apply(req)).build();
  }

  private static McpServerFeatures.SyncResourceSpecification resource() {
    McpSchema.Resource readme = McpSchema.Resource.builder("note://readme", "readme")
        .description("The readme").mimeType("text/plain").build();
    return new McpServerFeatures.SyncResourceSpecification(readme, (exchange, req) ->
        new McpSchema.ReadResourceResult(List.of(
            new McpSchema.TextResourceContents(req.uri(), "text/plain", "hello from the readme"))));
  }

  private static McpServerFeatures.SyncPromptSpecification prompt() {
    McpSchema.Prompt greet = new McpSchema.Prompt("greet", "Greets someone",
        List.of(new McpSchema.PromptArgument("who", "Who to greet", true)));
    return new McpServerFeatures.SyncPromptSpecification(greet, (exchange, req) ->
        new McpSchema.GetPromptResult("A greeting", List.of(new McpSchema.PromptMessage(McpSchema.Role.USER,
            new McpSchema.TextContent("Please greet " + req.arguments().get("who"))))));
  }

  /** Standard input copied, as it is read, to a file. */
  private static final class RecordingInput extends java.io.FilterInputStream {
    private final java.io.OutputStream copy;

    RecordingInput(java.io.InputStream in, java.nio.file.Path file) throws java.io.IOException {
      super(in);
      this.copy = java.nio.file.Files.newOutputStream(file);
    }

    @Override
    public int read() throws java.io.IOException {
      int b = super.read();
      if (b >= 0) {
        copy.write(b);
        copy.flush();
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws java.io.IOException {
      int n = super.read(buf, off, len);
      if (n > 0) {
        copy.write(buf, off, n);
        copy.flush();
      }
      return n;
    }
  }
}
