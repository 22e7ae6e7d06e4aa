package io.quotaflow.admission.http;

import io.quotaflow.admission.endpoint.Answer;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty refuses before any endpoint sees the request (an ambiguous or malformed URI, for
 * instance) answered in the API's error shape, {@code {"status": 400, "error": "..."}}, instead of
 * Jetty's HTML page: a client of a JSON API reads the reason the same way for every refusal.
 */
final class JettyErrors extends ErrorHandler {

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int status,
      String message,
      Throwable cause,
      Callback callback) {
    final String reason =
        message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
    final Answer answer = Answer.error(status, reason, "refused-by-server");
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
  }
}
