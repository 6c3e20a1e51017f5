package dev.ratchet.runtime;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The facade an application programs against hands out only the runtime's public types, and never
 * a future of a future: what is answered once journaled and completes later is an {@link Accepted}.
 */
class RatchetFacadeTest {

  private static final List<Class<?>> FACADE = List.of(Ratchet.class, RatchetQueries.class, Accepted.class,
      TurnRequest.class, MessageRequest.class);

  @Test
  void theFacadeNamesNoJournalEngineOrImplementationType() {
    List<String> foreign = new ArrayList<>();
    for (Class<?> type : FACADE) {
      for (Method m : type.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        List<Type> named = new ArrayList<>(List.of(m.getGenericParameterTypes()));
        named.add(m.getGenericReturnType());
        for (Type t : named) {
          visit(t, c -> {
            String pkg = c.getPackageName();
            if (pkg.startsWith("dev.ratchet.") && !pkg.equals("dev.ratchet.runtime")
                && !pkg.equals("dev.ratchet.runtime.agent")) {
              foreign.add(type.getSimpleName() + "." + m.getName() + ": " + c.getName());
            }
          });
        }
      }
    }
    assertThat(foreign).isEmpty();
  }

  @Test
  void noPublicSignatureOfTheFacadeNestsFutures() {
    List<String> nested = new ArrayList<>();
    for (Class<?> type : FACADE) {
      for (Method m : type.getDeclaredMethods()) {
        if (Modifier.isPublic(m.getModifiers()) && nestsFutures(m.getGenericReturnType(), false)) {
          nested.add(type.getSimpleName() + "." + m.getName());
        }
      }
    }
    assertThat(nested).isEmpty();
  }

  private static boolean nestsFutures(Type t, boolean insideFuture) {
    if (t instanceof ParameterizedType p) {
      boolean future = p.getRawType() == Future.class;
      if (future && insideFuture) {
        return true;
      }
      for (Type arg : p.getActualTypeArguments()) {
        if (nestsFutures(arg, insideFuture || future)) {
          return true;
        }
      }
      return false;
    }
    return insideFuture && t == Future.class;
  }

  private static void visit(Type t, java.util.function.Consumer<Class<?>> seen) {
    if (t instanceof Class<?> c) {
      seen.accept(c.isArray() ? c.getComponentType() : c);
    } else if (t instanceof ParameterizedType p) {
      visit(p.getRawType(), seen);
      for (Type arg : p.getActualTypeArguments()) {
        visit(arg, seen);
      }
    }
  }
}
