package dev.ratchet.verticles;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The facade and the journal port hold: callers reach the runtime through {@link RatchetNode} and the
 * journal through its interfaces, never through the Redis class or the implementation behind the
 * facade. The Redis tools (the CLI's inspect, the benchmark, the chaos run) may read Redis itself.
 */
class ArchitectureTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // the runtime's test classes come from its test jar when the whole build runs: not the code under rule
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")).importPackages("dev.ratchet");
  }

  @Test
  void theHttpApiAndTheCliReachTheRuntimeThroughTheRatchetInterfaceOnly() {
    noClasses().that().resideOutsideOfPackages("dev.ratchet.verticles.impl..", "dev.ratchet.verticles.bench..",
            "dev.ratchet.verticles.chaos..")
        .and().doNotHaveFullyQualifiedName(RatchetNode.class.getName())
        .should().dependOnClassesThat().areAssignableTo(RatchetNodeImpl.class)
        .because("the HTTP API, the CLI and applications use the RatchetNode interface, without downcasts")
        .check(classes);
  }

  @Test
  void theHttpApiReadsTheJournalThroughItsReadSide() {
    noClasses().that().resideInAPackage("dev.ratchet.verticles.http..")
        .should().dependOnClassesThat().areAssignableTo(RedisJournal.class)
        .check(classes);
  }

  @Test
  void theEngineAndTheAgentLoopDependOnTheJournalPortOnly() {
    noClasses().that().resideInAnyPackage("dev.ratchet.runtime.engine..", "dev.ratchet.runtime.agent..",
            "dev.ratchet.runtime.session..",
            "dev.ratchet.verticles.impl..")
        .and().doNotHaveFullyQualifiedName(RatchetNodeImpl.class.getName())
        .and().doNotHaveFullyQualifiedName(RatchetNodeImpl.class.getPackageName() + ".NodeStart")
        .should().dependOnClassesThat().areAssignableTo(RedisJournal.class)
        .because("the engine runs on any SessionJournal: Redis in production, in memory in rule tests")
        .check(classes);
  }
}
