"""The API's pieces every app's API shares: the error shape, the JSON parser and the refusal
of input an operation does not take."""
