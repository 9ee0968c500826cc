// Prints one plain closing line, "N passed, N failed", that CI tooling reads regardless of runner,
// preceded by the slowest test files, so the run's time budget (CI must stay under 20 minutes on
// two cores) shows where it goes.
const SLOWEST_SHOWN = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const durations = results.testResults
      .map((file) => ({ path: file.testFilePath, ms: file.perfStats.end - file.perfStats.start }))
      .filter((file) => Number.isFinite(file.ms))
      .sort((a, b) => b.ms - a.ms);
    const totalMs = durations.reduce((sum, file) => sum + file.ms, 0);
    const lines = durations
      .slice(0, SLOWEST_SHOWN)
      .map((file) => `  ${(file.ms / 1000).toFixed(1).padStart(6)} s  ${file.path.replace(`${process.cwd()}/`, "")}`);
    process.stdout.write(`\nslowest test files (${(totalMs / 1000).toFixed(0)} s in ${durations.length} files):\n${lines.join("\n")}\n`);
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
