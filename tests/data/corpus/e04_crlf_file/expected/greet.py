def greet(name):
    if not name:
        return "Hello, stranger"
    return "Hello, " + name.strip() + "!"


def shout(text):
    return text.upper()
