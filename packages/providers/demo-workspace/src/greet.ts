// TODO: let callers choose the greeting word.
export function greet(name: string): string {
  return 'Hello, ' + name + '!';
}
