// FormErrors is the alert that tells why a form or its step failed, a
// paragraph for each message; with none, nothing is rendered (a page
// announces an alert as it appears).
export function FormErrors({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="form-errors" role="alert">
      {messages.map((m, i) => (
        <p key={i}>{m}</p>
      ))}
    </div>
  );
}

// FormError is FormErrors with one message, or none when it is empty.
export function FormError({ message }: { message: string }) {
  return <FormErrors messages={message ? [message] : []} />;
}
