def greet(name):
    if not name:
        return "Hello, stranger"
    return "Hello, " + name


def shout(text):
    return text.upper()
