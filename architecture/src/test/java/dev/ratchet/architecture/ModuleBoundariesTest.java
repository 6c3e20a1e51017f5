package dev.ratchet.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.function.BiPredicate;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules between modules of docs/ARCHITECTURE.md ("Modules"), on the main classes of every
 * module: a module uses only the modules below it, and only their public packages.
 */
class ModuleBoundariesTest {

  /**
   * The benchmark and soak run of ratchet.jar measure what is behind the facade (the Redis journal's
   * command counts, the retention sweeper's progress); no library reaches there.
   */
  private static final String BENCHMARK = "dev.ratchet.server.bench";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")).importPackages("dev.ratchet");
  }

  @Test
  void everyModuleIsOnTheClasspathOfTheRules() {
    for (RatchetModule m : RatchetModule.values()) {
      assertThat(classes.stream().anyMatch(c -> RatchetModule.of(c).orElse(null) == m)).as(m.name()).isTrue();
    }
  }

  @Test
  void aModuleUsesOnlyTheModulesBelowIt() {
    classes().should(dependOnlyWhere("use only the modules below them",
            (from, to) -> from.mayUse(to)))
        .check(classes);
  }

  @Test
  void noLibraryModuleUsesTheServerTheTestKitOrAnAdapter() {
    classes().that(inModules(true))
        .should(dependOnlyWhere("use library modules only", (from, to) -> RatchetModule.LIBRARIES.contains(to)))
        .check(classes);
  }

  @Test
  void noModuleUsesAnotherModulesImplementation() {
    classes().that(new DescribedPredicate<JavaClass>("outside the benchmark") {
          @Override
          public boolean test(JavaClass c) {
            return !c.getPackageName().startsWith(BENCHMARK);
          }
        })
        .should(new ArchCondition<JavaClass>("use no impl or internal package of another module") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            Optional<RatchetModule> from = RatchetModule.of(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
              JavaClass target = d.getTargetClass();
              Optional<RatchetModule> to = RatchetModule.of(target);
              if (from.isPresent() && to.isPresent() && from.get() != to.get()
                  && RatchetModule.isImplementation(target)) {
                events.add(SimpleConditionEvent.violated(c, d.getDescription()));
              }
            }
          }
        })
        .check(classes);
  }

  @Test
  void theHttpLayerReachesTheRuntimeThroughItsPublicTypes() {
    noClasses().that().resideInAPackage("dev.ratchet.verticles.http..")
        .should().dependOnClassesThat(journalImplementations())
        .orShould().dependOnClassesThat(facadeImplementations())
        .because("the HTTP API, like an application, holds the Ratchet facade and reads the journal through its ports")
        .check(classes);
  }

  @Test
  void theEngineAndTheAgentLoopUseTheJournalThroughItsPorts() {
    noClasses().that().resideInAnyPackage("dev.ratchet.runtime.engine..", "dev.ratchet.runtime.agent..",
            "dev.ratchet.runtime.session..")
        .should().dependOnClassesThat(journalImplementations())
        .because("the engine and the session host run on any journal: Redis in production, in memory in tests")
        .check(classes);
  }

  /** Classes of the journal package that implement one of its interfaces: Redis's, the in-memory one. */
  private static DescribedPredicate<JavaClass> journalImplementations() {
    return new DescribedPredicate<>("implement a journal port") {
      @Override
      public boolean test(JavaClass c) {
        String journal = "dev.ratchet.runtime.journal";
        return !c.isInterface() && c.getPackageName().startsWith(journal)
            && c.getAllRawInterfaces().stream().anyMatch(i -> i.getPackageName().startsWith(journal));
      }
    };
  }

  /** Implementations of the Ratchet facade, wherever the facade lives. */
  private static DescribedPredicate<JavaClass> facadeImplementations() {
    return new DescribedPredicate<>("implement the Ratchet facade") {
      @Override
      public boolean test(JavaClass c) {
        return !c.isInterface() && c.getAllRawInterfaces().stream()
            .anyMatch(i -> i.getSimpleName().equals("Ratchet") && i.getPackageName().startsWith("dev.ratchet."));
      }
    };
  }

  private static DescribedPredicate<JavaClass> inModules(boolean libraries) {
    return new DescribedPredicate<>(libraries ? "in a library module" : "in an application module") {
      @Override
      public boolean test(JavaClass c) {
        return RatchetModule.of(c).map(m -> RatchetModule.LIBRARIES.contains(m) == libraries).orElse(false);
      }
    };
  }

  /** Every dependency of a class on another module's class is one that {@code allowed} accepts. */
  private static ArchCondition<JavaClass> dependOnlyWhere(String description,
      BiPredicate<RatchetModule, RatchetModule> allowed) {
    return new ArchCondition<>(description) {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        Optional<RatchetModule> from = RatchetModule.of(c);
        if (from.isEmpty()) {
          return;
        }
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          Optional<RatchetModule> to = RatchetModule.of(d.getTargetClass());
          if (to.isPresent() && to.get() != from.get() && !allowed.test(from.get(), to.get())) {
            events.add(SimpleConditionEvent.violated(c, from.get() + " -> " + to.get() + ": " + d.getDescription()));
          }
        }
      }
    };
  }
}
