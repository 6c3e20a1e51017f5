package dev.ratchet.verticles.impl;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.streams.ReadStream;

/** A Vert.x consumer that stops counting in its {@link EventAudience} when it is unregistered. */
final class CountedConsumer<T> implements MessageConsumer<T> {

  private final MessageConsumer<T> consumer;
  private final Runnable leave;

  CountedConsumer(MessageConsumer<T> consumer, Runnable leave) {
    this.consumer = consumer;
    this.leave = leave;
  }

  @Override
  public Future<Void> unregister() {
    leave.run();
    return consumer.unregister();
  }

  @Override
  public MessageConsumer<T> handler(Handler<Message<T>> handler) {
    consumer.handler(handler);
    return this;
  }

  @Override
  public MessageConsumer<T> exceptionHandler(Handler<Throwable> handler) {
    consumer.exceptionHandler(handler);
    return this;
  }

  @Override
  public MessageConsumer<T> pause() {
    consumer.pause();
    return this;
  }

  @Override
  public MessageConsumer<T> resume() {
    consumer.resume();
    return this;
  }

  @Override
  public MessageConsumer<T> fetch(long amount) {
    consumer.fetch(amount);
    return this;
  }

  @Override
  public MessageConsumer<T> endHandler(Handler<Void> handler) {
    consumer.endHandler(handler);
    return this;
  }

  @Override
  public ReadStream<T> bodyStream() {
    return consumer.bodyStream();
  }

  @Override
  public boolean isRegistered() {
    return consumer.isRegistered();
  }

  @Override
  public String address() {
    return consumer.address();
  }

  @Override
  public Future<Void> completion() {
    return consumer.completion();
  }
}
