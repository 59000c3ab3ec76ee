/** A bad action input. The message names the input and says what is expected. */
export class InputError extends Error {
  readonly input: string;

  constructor(input: string, message: string) {
    super(`Input '${input}': ${message}`);
    this.name = "InputError";
    this.input = input;
  }
}
