from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.models import EmailAddress
from django import forms
from django.core.exceptions import ValidationError

from gameplay.bots.sandbox.unpack import MAX_ZIP_BYTES
from gameplay.engine.options import PRESETS
from outside_bots.models import RUNTIMES, OutsideBot, hosted_code, new_version


class PolicyURLField(forms.URLField):
    """A URL that only the network policy checks (the model's validator): Django's own URL
    check would answer "Enter a valid URL." for what the policy refuses with its reason."""

    default_validators = []


class BotForm(forms.ModelForm):
    """An author's outside bot, called at its URL (the model checks it against the network
    policy) or hosted: a code file and its runtime (hosted_code checks the upload's bounds).
    A hosted bot's page changes its code, an HTTP bot's its URL."""

    # The model checks the name after its Unicode normalisation ("ｌｏｗｂａｌｌ" is "lowball").
    name = forms.CharField(max_length=50, help_text='letters, digits, "-" and "_", one name in '
                                                    "any case; not a built-in bot's")
    url = PolicyURLField(label="URL", max_length=300, assume_scheme="https", required=False,
                         help_text="where each decision is POSTed; or upload its code")
    code = forms.FileField(required=False, label="Code", help_text=(
        "a hosted bot's source: bot.py or bot.js, or a zip with it at the top (1 MB at most)"))
    runtime = forms.ChoiceField(choices=[("", "—"), *RUNTIMES], required=False,
                                help_text="what runs its code")
    presets = forms.MultipleChoiceField(
        choices=[(name, name) for name in PRESETS], widget=forms.CheckboxSelectMultiple,
        help_text="the rule sets it plays")

    class Meta:
        model = OutsideBot
        fields = ["name", "url", "presets", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for field in ("url",) if self.instance.hosted else ("code", "runtime"):
                del self.fields[field]

    def clean(self):
        data = super().clean()
        upload, runtime = data.pop("code", None), data.pop("runtime", "")
        if upload is None:
            if runtime:
                self.add_error("runtime", "only with a code file")
            elif not self.instance.pk and not data.get("url"):
                self.add_error("url", "a URL, or a code file and its runtime")
            return data
        # The instance the form validates is hosted too (the service makes the real one), so
        # a refused upload is not also refused as an empty URL.
        if not self.instance.hosted:
            self.instance.url = new_version()
        if data.pop("url", ""):
            self.add_error("code", "a URL or a code file, not both")
            return data
        runtime = runtime or self.instance.runtime
        if not runtime:
            self.add_error("runtime", "choose what runs its code: "
                           + " or ".join(label for _, label in RUNTIMES))
            return data
        try:
            code = hosted_code(upload.read(MAX_ZIP_BYTES + 1), upload.name, runtime)
        except ValidationError as e:
            self.add_error("code" if runtime else "runtime", e.messages)
            return data
        self.instance.code, self.instance.runtime = code, runtime
        data.update(code=code, runtime=runtime)
        return data


class ResetPasswordForm(AllauthResetPasswordForm):
    """allauth's password reset, for verified addresses only: an address nobody confirmed
    could be anyone's (ACCOUNT_FORMS)."""

    def clean_email(self):
        email = super().clean_email()
        self.users = [user for user in self.users if EmailAddress.objects.filter(
            user=user, email__iexact=email, verified=True).exists()]
        return email
