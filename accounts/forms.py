from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.models import EmailAddress
from django import forms

from gameplay.engine.options import PRESETS
from outside_bots.models import OutsideBot


class PolicyURLField(forms.URLField):
    """A URL that only the network policy checks (the model's validator): Django's own URL
    check would answer "Enter a valid URL." for what the policy refuses with its reason."""

    default_validators = []


class BotForm(forms.ModelForm):
    """An author's outside bot; the model checks the URL against the network policy."""

    # The model checks the name after its Unicode normalisation ("ｌｏｗｂａｌｌ" is "lowball").
    name = forms.CharField(max_length=50, help_text='letters, digits, "-" and "_", one name in '
                                                    "any case; not a built-in bot's")
    url = PolicyURLField(label="URL", max_length=300, assume_scheme="https",
                         help_text="where each decision is POSTed")
    presets = forms.MultipleChoiceField(
        choices=[(name, name) for name in PRESETS], widget=forms.CheckboxSelectMultiple,
        help_text="the rule sets it plays")

    class Meta:
        model = OutsideBot
        fields = ["name", "url", "presets", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class ResetPasswordForm(AllauthResetPasswordForm):
    """allauth's password reset, for verified addresses only: an address nobody confirmed
    could be anyone's (ACCOUNT_FORMS)."""

    def clean_email(self):
        email = super().clean_email()
        self.users = [user for user in self.users if EmailAddress.objects.filter(
            user=user, email__iexact=email, verified=True).exists()]
        return email
