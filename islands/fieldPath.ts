// The server names a field error's field by its path, a list's item by its
// index in brackets (passengers[1].surname: pkg/fault's Item and Field, one
// form for every answer); the forms name their inputs with dots
// (passengers.1.surname). formField turns the one into the other.
export function formField(serverField: string): string {
  return serverField.replace(/\[(\d+)\]/g, '.$1');
}
