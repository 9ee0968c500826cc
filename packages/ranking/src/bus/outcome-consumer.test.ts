import { fakeOutcomeFeed, recordingLogger } from "../../test/fake-outcome-feed";
import { HEALTH } from "../../test/routes";
import { RouteHealthBook } from "../domain/route-health";
import { startOutcomeConsumer } from "./outcome-consumer";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("outcome consumer failures", () => {
  async function start() {
    const feed = fakeOutcomeFeed();
    const logger = recordingLogger();
    const onFailed = jest.fn();
    const consumer = await startOutcomeConsumer({
      nc: feed.nc,
      book: new RouteHealthBook(HEALTH),
      replayWindowMs: 60_000,
      logger,
      onFailed,
    });
    return { feed, logger, onFailed, consumer };
  }

  it("logs a rejected read loop and reports the feed as failed, instead of an unhandled rejection", async () => {
    const { feed, logger, onFailed, consumer } = await start();
    const boom = new Error("consumer deleted");
    feed.fail(boom);
    await tick();
    expect(onFailed).toHaveBeenCalledWith(boom);
    expect(logger.error).toHaveBeenCalledWith({ err: boom }, expect.stringContaining("outcome consumer loop ended"));
    await expect(consumer.stop()).resolves.toBeUndefined();
    expect(onFailed).toHaveBeenCalledTimes(1);
  });

  it("reports a feed that ends without a stop as failed", async () => {
    const { feed, logger, onFailed } = await start();
    feed.end();
    await tick();
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("a stop is not a failure", async () => {
    const { logger, onFailed, consumer } = await start();
    await consumer.stop();
    expect(onFailed).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
  });
});
